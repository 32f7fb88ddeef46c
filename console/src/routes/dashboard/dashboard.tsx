import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, type IntlShape, useIntl } from 'react-intl';
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
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'dashboard.title' })}>
      <QueryView query={query} what="status.loading.dashboard">
        {(dashboard) => (
          <div className="stack">
            <Notifications dashboard={dashboard} />
            {manages && <QuickSetup dashboard={dashboard} />}
            <MoneySection />
            <Gateways gateways={dashboard.payment_gateways} manages={manages} />
            <section className="card" aria-labelledby="plan-title">
              <h2 id="plan-title">
                <FormattedMessage id="dashboard.plan.title" />
              </h2>
              <p>
                <FormattedMessage
                  id={dashboard.plan === 'pro' ? 'dashboard.plan.pro' : 'dashboard.plan.free'}
                  values={{ strong: (chunks) => <strong>{chunks}</strong> }}
                />
              </p>
              <p>
                <FormattedMessage id="dashboard.plan.templates" values={{ templates: dashboard.templates.form_templates, imported: dashboard.templates.imported_forms }} />
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
  const intl = useIntl();
  const queries = useQueryClient();
  const dismiss = useMutation({
    mutationFn: async (id: string) => unwrap(await api.POST('/administration/dismiss-notification', { body: { id } })),
    onSuccess: () => queries.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
  if (dashboard.notifications.length === 0) return null;
  return (
    <section aria-labelledby="notifications-title" className="stack">
      <h2 id="notifications-title" className="visually-hidden">
        <FormattedMessage id="dashboard.notifications.title" />
      </h2>
      {dismiss.isError && <ErrorNotice error={dismiss.error} />}
      {dashboard.notifications.map((notification) => (
        <div key={notification.id} className={`notice notice-${notification.severity}`} role={notification.severity === 'error' ? 'alert' : undefined}>
          <p>{notification.message}</p>
          {isEnvironmentSetting(notification.setting) && <ForOperator setting={notification.setting} />}
          <button type="button" className="button button-quiet" disabled={dismiss.isPending} onClick={() => dismiss.mutate(notification.id)}>
            <FormattedMessage id="dashboard.notifications.dismiss" />
            <span className="visually-hidden">{intl.formatMessage({ id: 'dashboard.notifications.dismissWhich' }, { message: notification.message })}</span>
          </button>
        </div>
      ))}
    </section>
  );
}

function Gateways({ gateways, manages }: { gateways: Record<string, GatewayFacts>; manages: boolean }) {
  // The names merchants know (the catalog's); the dashboard's own `label` is the interface's.
  const names = useGatewayLabels();
  const intl = useIntl();
  return (
    <section className="card" aria-labelledby="gateways-title">
      <h2 id="gateways-title">
        <FormattedMessage id="dashboard.gateways.title" />
      </h2>
      <TableScroll label={intl.formatMessage({ id: 'dashboard.gateways.caption' })}>
        <table className="list-table">
          <caption className="visually-hidden">
            <FormattedMessage id="dashboard.gateways.caption" />
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage id="dashboard.gateways.gateway" />
              </th>
              <th scope="col">
                <FormattedMessage id="dashboard.gateways.modeInUse" />
              </th>
              <th scope="col">
                <FormattedMessage id="dashboard.gateways.testMode" />
              </th>
              <th scope="col">
                <FormattedMessage id="dashboard.gateways.liveMode" />
              </th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(gateways).map(([id, gateway]) => (
              <tr key={id}>
                <th scope="row">{names[id] ?? label(gateway.label)}</th>
                <td data-label={intl.formatMessage({ id: 'dashboard.gateways.modeInUse' })}>
                  <FormattedMessage id={gateway.checkout_paused ? 'dashboard.gateways.modePaused' : 'dashboard.gateways.mode'} values={{ mode: gateway.mode }} />
                </td>
                <td data-label={intl.formatMessage({ id: 'dashboard.gateways.testMode' })}>{modeSummary(intl, gateway.modes.test)}</td>
                <td data-label={intl.formatMessage({ id: 'dashboard.gateways.liveMode' })}>{modeSummary(intl, gateway.modes.live)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {manages && (
        <p>
          <Link to="/gateways">
            <FormattedMessage id="dashboard.gateways.manage" />
          </Link>
        </p>
      )}
    </section>
  );
}

function modeSummary(intl: IntlShape, mode: components['schemas']['DashboardGatewayModeDto']): string {
  if (!mode.is_connected) return intl.formatMessage({ id: 'dashboard.gateways.notConnected' });
  const contract = mode.webhook_contract;
  if (!contract) return intl.formatMessage({ id: mode.webhook_configured ? 'dashboard.gateways.webhookSet' : 'dashboard.gateways.webhookMissing' });
  return intl.formatMessage(
    { id: contract.last_error ? 'dashboard.gateways.webhookStateError' : 'dashboard.gateways.webhookState' },
    { state: contract.state, error: contract.last_error ?? '' },
  );
}

function Upgrades({ upgrades }: { upgrades: Dashboard['upgrades'] }) {
  if (upgrades.length === 0) return null;
  return (
    <section className="card" aria-labelledby="upgrades-title">
      <h2 id="upgrades-title">
        <FormattedMessage id="dashboard.upgrades.title" />
      </h2>
      <ul>
        {upgrades.map((upgrade) => (
          <li key={upgrade.task}>
            <FormattedMessage
              id="dashboard.upgrades.task"
              values={{ task: label(upgrade.task), release: upgrade.release, status: upgrade.status, attempts: upgrade.attempts, max: upgrade.max_attempts, strong: (chunks) => <strong>{chunks}</strong> }}
            />
            {upgrade.last_error ? ` — ${upgrade.last_error}` : ''}
            {upgrade.finished_at && (
              <FormattedMessage id="dashboard.upgrades.finished" values={{ time: <Time iso={upgrade.finished_at} /> }} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
