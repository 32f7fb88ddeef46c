import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MANAGE_SETTINGS } from '../../api/capabilities';
import { useSession } from '../../api/session';
import type { components } from '../../../../clients/typescript/index';
import { unwrap } from '../../api/api-error';
import { api } from '../../api/client';
import { label } from '../../format';
import { Time } from '../../components/time';
import { ForOperator } from '../../components/for-operator';
import { isEnvironmentSetting } from '../../components/operator-facts';
import { Page } from '../../components/page';
import { TableScroll } from '../../components/table-scroll';
import { ErrorNotice, QueryView } from '../../components/status';
import { dashboardKeys, dashboardQuery } from '../../api/dashboard';
import { useGatewayLabels } from '../../api/gateways';
import { MoneySection } from './money/money-section';
import { QuickSetup } from './quick-setup/quick-setup';

type Dashboard = components['schemas']['DashboardDto'];
type GatewayFacts = components['schemas']['DashboardGatewayDto'];

export function DashboardScreen() {
  // Quick setup's steps and the notices are done elsewhere (gateways, forms, the payer's page):
  // the dashboard is read afresh on every visit (one request, not one per panel).
  const query = useQuery({ ...dashboardQuery, refetchOnMount: 'always' });
  const session = useSession();
  // Quick setup and the gateways are the administrator's (support and viewers see the facts only).
  const manages = session.can(MANAGE_SETTINGS);
  return (
    <Page title="Dashboard">
      <QueryView query={query} what="status.loading.dashboard">
        {(dashboard) => (
          <div className="stack">
            <Notifications dashboard={dashboard} />
            {manages && <QuickSetup dashboard={dashboard} />}
            <MoneySection />
            <Gateways gateways={dashboard.payment_gateways} manages={manages} />
            <section className="card" aria-labelledby="plan-title">
              <h2 id="plan-title">Plan</h2>
              <p>
                You are on the <strong>{dashboard.plan === 'pro' ? 'Pro' : 'Free'}</strong> plan.{' '}
                {dashboard.plan === 'free' ? 'Card payments carry a 2% platform fee; the Pro plan has none and lets you connect your own keys.' : 'No platform fee.'}
              </p>
              <p>
                {dashboard.templates.form_templates} form templates, {dashboard.templates.imported_forms} forms created from templates.
              </p>
            </section>
            <Upgrades upgrades={dashboard.upgrades} />
          </div>
        )}
      </QueryView>
    </Page>
  );
}

function Notifications({ dashboard }: { dashboard: Dashboard }) {
  const queries = useQueryClient();
  const dismiss = useMutation({
    mutationFn: async (id: string) => unwrap(await api.POST('/administration/dismiss-notification', { body: { id } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
  if (dashboard.notifications.length === 0) return null;
  return (
    <section aria-labelledby="notifications-title" className="stack">
      <h2 id="notifications-title" className="visually-hidden">
        Notifications
      </h2>
      {dismiss.isError && <ErrorNotice error={dismiss.error} />}
      {dashboard.notifications.map((notification) => (
        <div key={notification.id} className={`notice notice-${notification.severity}`} role={notification.severity === 'error' ? 'alert' : undefined}>
          <p>{notification.message}</p>
          {isEnvironmentSetting(notification.setting) && <ForOperator setting={notification.setting} />}
          <button type="button" className="button button-quiet" disabled={dismiss.isPending} onClick={() => dismiss.mutate(notification.id)}>
            Dismiss<span className="visually-hidden"> “{notification.message}”</span>
          </button>
        </div>
      ))}
    </section>
  );
}

function Gateways({ gateways, manages }: { gateways: Record<string, GatewayFacts>; manages: boolean }) {
  // The names merchants know (the catalog's); the dashboard's own `label` is the interface's.
  const names = useGatewayLabels();
  return (
    <section className="card" aria-labelledby="gateways-title">
      <h2 id="gateways-title">Gateways</h2>
      <TableScroll label="Gateways per mode">
        <table className="list-table">
          <caption className="visually-hidden">Gateways per mode</caption>
          <thead>
            <tr>
              <th scope="col">Gateway</th>
              <th scope="col">Mode in use</th>
              <th scope="col">Test mode</th>
              <th scope="col">Live mode</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(gateways).map(([id, gateway]) => (
              <tr key={id}>
                <th scope="row">{names[id] ?? label(gateway.label)}</th>
                <td data-label="Mode in use">
                  {gateway.mode}
                  {gateway.checkout_paused ? ' (checkout paused)' : ''}
                </td>
                <td data-label="Test mode">{modeSummary(gateway.modes.test)}</td>
                <td data-label="Live mode">{modeSummary(gateway.modes.live)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {manages && (
        <p>
          <Link to="/gateways">Manage gateways</Link>
        </p>
      )}
    </section>
  );
}

function modeSummary(mode: components['schemas']['DashboardGatewayModeDto']): string {
  if (!mode.is_connected) return 'Not connected';
  const contract = mode.webhook_contract;
  if (!contract) return mode.webhook_configured ? 'Connected, webhook set' : 'Connected, webhook missing';
  return `Connected, webhook ${contract.state}${contract.last_error ? ` (${contract.last_error})` : ''}`;
}

function Upgrades({ upgrades }: { upgrades: Dashboard['upgrades'] }) {
  if (upgrades.length === 0) return null;
  return (
    <section className="card" aria-labelledby="upgrades-title">
      <h2 id="upgrades-title">Upgrade tasks</h2>
      <ul>
        {upgrades.map((upgrade) => (
          <li key={upgrade.task}>
            {label(upgrade.task)} ({upgrade.release}): <strong>{upgrade.status}</strong>, attempt {upgrade.attempts} of {upgrade.max_attempts}
            {upgrade.last_error ? ` — ${upgrade.last_error}` : ''}
            {upgrade.finished_at && (
              <>
                , finished <Time iso={upgrade.finished_at} />
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
