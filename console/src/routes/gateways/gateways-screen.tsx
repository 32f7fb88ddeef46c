import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import type { components } from '../../../../clients/typescript/index';
import { dashboardQuery } from '../../api/dashboard';
import { catalogQuery, gatewayListQuery } from '../../api/gateways';
import { MODES } from '../../api/vocabulary';
import { Page } from '../../components/page';
import { Empty, QueryView } from '../../components/status';
import { TableScroll } from '../../components/table-scroll';
import { useT } from '../../i18n/use-t';
import { FieldsForm } from './fields-form';
import { saveConnectKind } from './gateway-calls';
import { type CatalogGateway, connectKind, type ConnectOutcome, connectOutcomes, isConnectReturn, modeText, type Plan } from './gateway-logic';
import { ModePanel } from './mode-panel';
import { ModeSwitch } from './mode-switch';
import { PaymentMethods } from './methods';

type DashboardGateway = components['schemas']['DashboardGatewayDto'];

/**
 * The gateways screen: every gateway the catalog lists, drawn from its data (connect kinds and
 * their fields, methods), with its state per mode from the dashboard.
 */
export function GatewaysScreen() {
  const t = useT();
  const catalog = useQuery(catalogQuery);
  const dashboard = useQuery(dashboardQuery);
  const outcomes = useConnectReturn(catalog.data?.gateways);

  return (
    <Page title={t('layout.nav.gateways')}>
      {outcomes.map((outcome) => (
        <div key={outcome.message} className={`notice notice-${outcome.tone}`} role={outcome.tone === 'error' ? 'alert' : 'status'}>
          <p>{outcome.message}</p>
        </div>
      ))}
      <QueryView queries={[catalog, dashboard]} what="status.loading.gateways">
        {([{ gateways, plan }, { payment_gateways: facts }]) =>
          gateways.length === 0 ? (
            <Empty>{t('gateways.none')}</Empty>
          ) : (
            <div className="stack">
              <p>
                <FormattedMessage id="gateways.plan" values={{ plan: plan === 'pro' ? 'pro' : 'free', strong: (chunks) => <strong>{chunks}</strong> }} />
              </p>
              {gateways.map((gateway) => (
                <GatewayCard key={gateway.id} gateway={gateway} facts={facts[gateway.id]} plan={plan} />
              ))}
              <GatewayListTable gateways={gateways} />
            </div>
          )
        }
      </QueryView>
    </Page>
  );
}

/**
 * The outcome of an OAuth round trip (`?<gateway id>_connected=…` / `…_error=…` on the address
 * the service sent the browser back to), kept as notices while the parameters leave the address,
 * so a reload or a shared link does not announce it again.
 */
function useConnectReturn(gateways: readonly CatalogGateway[] | undefined): ConnectOutcome[] {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const [outcomes, setOutcomes] = useState<ConnectOutcome[]>([]);
  useEffect(() => {
    if (!gateways) return;
    const read = connectOutcomes(params, gateways, t);
    if (read.consumed.length === 0) return;
    setOutcomes(read.outcomes);
    const rest = new URLSearchParams(params);
    for (const name of read.consumed) rest.delete(name);
    setParams(rest, { replace: true });
  }, [gateways, params, setParams, t]);
  return outcomes;
}

/**
 * The service sends the browser back from a connect to ADMIN_URL (by default the console's first
 * screen): with a connect outcome in the address, it goes on to this screen, outcome and all.
 */
export function ConnectReturn({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (isConnectReturn(new URLSearchParams(location.search))) return <Navigate to={{ pathname: '/gateways', search: location.search }} replace />;
  return <>{children}</>;
}

function GatewayCard({ gateway, facts, plan }: { gateway: CatalogGateway; facts: DashboardGateway | undefined; plan: Plan }) {
  const t = useT();
  const credentials = connectKind(gateway, 'credentials');
  const titleId = `${gateway.id}-title`;
  return (
    <section className="card gateway" aria-labelledby={titleId}>
      <header className="gateway-header">
        <h2 id={titleId}>{gateway.label}</h2>
        <span className="badge">{t(gateway.kind === 'card' ? 'gateways.kind.card' : 'gateways.kind.wallet')}</span>
        {facts?.checkout_paused && <span className="badge badge-failed">{t('gateways.checkoutPaused')}</span>}
      </header>
      <ModeSwitch gateway={gateway} facts={facts} />
      <div className="modes">
        {MODES.map((mode) => (
          <ModePanel key={mode} gateway={gateway} mode={mode} facts={facts?.modes[mode]} plan={plan} />
        ))}
      </div>
      {credentials && (
        <section className="credentials" aria-labelledby={`${gateway.id}-credentials-title ${gateway.id}-title`}>
          <h3 id={`${gateway.id}-credentials-title`}>{t('gateways.credentials.title', { mode: modeText(gateway.mode, t) })}</h3>
          <FieldsForm
            idPrefix={`${gateway.id}-credentials`}
            fields={credentials.fields}
            submitLabel={t('gateways.credentials.submit')}
            save={(values) => saveConnectKind('credentials', gateway.id, gateway.mode, values)}
          >
            <p className="field-help">{t('gateways.credentials.help', { gateway: gateway.label })}</p>
          </FieldsForm>
        </section>
      )}
      <PaymentMethods gateway={gateway} plan={plan} />
    </section>
  );
}

/**
 * Whether each provider takes payments now (section B's gateway list). That list also holds bank
 * debit under an id of its own (`gateway_c`), which is Stripe's bank-debit method: it shows among
 * that gateway's payment methods above, so only the catalog's gateways are listed here.
 */
function GatewayListTable({ gateways }: { gateways: readonly CatalogGateway[] }) {
  const t = useT();
  const list = useQuery(gatewayListQuery);
  const labels = new Map(gateways.map((gateway) => [gateway.id as string, gateway.label]));
  return (
    <section className="card" aria-labelledby="gateway-list-title">
      <h2 id="gateway-list-title">{t('gateways.list.title')}</h2>
      <p className="field-help">{t('gateways.list.help')}</p>
      <QueryView query={list} what="status.loading.gatewayList">
        {(all) => {
          const entries = all.filter((entry) => labels.has(entry.gateway));
          return (
            <TableScroll label={t('gateways.list.label')}>
              <table>
                <caption className="visually-hidden">{t('gateways.list.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('gateways.list.gateway')}</th>
                    <th scope="col">{t('gateways.list.enabled')}</th>
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr key={entry.gateway}>
                      <th scope="row">{labels.get(entry.gateway)}</th>
                      <td>{t(entry.enabled ? 'gateways.list.yes' : 'gateways.list.no')}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          );
        }}
      </QueryView>
    </section>
  );
}
