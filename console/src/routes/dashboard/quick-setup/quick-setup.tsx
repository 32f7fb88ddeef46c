import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { dashboardKeys, dashboardQuery } from '../../../api/dashboard';
import { hostedPageUrl } from '../../../api/forms';
import { catalogQuery } from '../../../api/gateways';
import { ErrorNotice } from '../../../components/status';
import { useT } from '../../../i18n/use-t';

type Dashboard = components['schemas']['DashboardDto'];
type Step = components['schemas']['QuickSetupProgressStepDto'];
type StepId = Step['id'];
type GatewayId = Step['gateways'][number];
type CatalogEntry = components['schemas']['GatewayCatalogEntryDto'];

/** How often the panel looks for the test payment while the payer's tab is open elsewhere. */
const WAIT_FOR_PAYMENT_MS = 3000;

/**
 * Quick setup on the dashboard: from test mode to a first test payment seen in Payments
 * (`quick_setup_progress`, each step done only while its fact holds). Going live is a later,
 * separate section: the gateways screen's live switch.
 */
export function QuickSetup({ dashboard }: { dashboard: Dashboard }) {
  const t = useT();
  const queries = useQueryClient();
  const [waiting, setWaiting] = useState(false);
  const steps = dashboard.quick_setup_progress;
  const paid = steps.find((step) => step.id === 'make_test_payment')?.done ?? false;
  // The dashboard screen reads the steps afresh on every visit; once the payer's page is open in
  // another tab, look again until the payment is completed.
  useQuery({ ...dashboardQuery, refetchInterval: waiting && !paid ? WAIT_FOR_PAYMENT_MS : false, refetchOnWindowFocus: waiting && !paid });
  const skip = useMutation({
    mutationFn: async () => unwrap(await api.POST('/administration/set-quick-setup-skip', { body: {} })),
    onSuccess: () => queries.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
  if (dashboard.skipped_quick_setup === 1) return null;
  const done = steps.filter((step) => step.done).length;
  const byId = Object.fromEntries(steps.map((step) => [step.id, step])) as Record<StepId, Step>;
  const allDone = done === steps.length;

  return (
    <section className="card" aria-labelledby="setup-title">
      <h2 id="setup-title">{t('quickSetup.title')}</h2>
      <p>
        <progress max={steps.length} value={done} aria-labelledby="setup-progress" />{' '}
        <span id="setup-progress">{t('quickSetup.progress', { done, steps: steps.length })}</span>
      </p>
      <ol className="steps">
        {steps.map((step) => (
          <li key={step.id} className={step.done ? 'step step-done' : 'step'}>
            <span className="step-state">{t(step.done ? 'quickSetup.done' : 'quickSetup.toDo')}</span> {t(`quickSetup.step.${step.id}`)}
            <StepDetail step={step} steps={byId} onOpenPage={() => setWaiting(true)} />
          </li>
        ))}
      </ol>
      <h3>{t('quickSetup.live.title')}</h3>
      <p>
        <FormattedMessage id="quickSetup.live.text" values={{ link: (chunks) => <Link to="/gateways">{chunks}</Link> }} />
      </p>
      {skip.isError && <ErrorNotice error={skip.error} />}
      <button type="button" className="button button-quiet" disabled={skip.isPending} onClick={() => skip.mutate()}>
        {t(allDone ? 'quickSetup.hide' : 'quickSetup.skip')}
      </button>
    </section>
  );
}

function StepDetail({ step, steps, onOpenPage }: { step: Step; steps: Record<StepId, Step>; onOpenPage: () => void }) {
  // Gateways' names and their test means (the provider's test card or sandbox account) are the catalog's.
  const t = useT();
  const catalog = useQuery(catalogQuery);
  const entry = (id: GatewayId): CatalogEntry | undefined => catalog.data?.gateways.find((gateway) => gateway.id === id);
  const name = (id: GatewayId) => entry(id)?.label ?? id;
  switch (step.id) {
    case 'connect_test_mode':
      return step.done ? <> ({step.gateways.map(name).join(', ')})</> : <p><Link to="/gateways">{t('quickSetup.connect.link')}</Link></p>;
    case 'create_form':
      if (step.done && step.form_id !== null) return <> (<Link to={`/forms/${step.form_id}`}>{t('quickSetup.form', { id: String(step.form_id) })}</Link>)</>;
      return <p><Link to="/forms/new">{t('quickSetup.create.link')}</Link></p>;
    case 'publish_form': {
      const formId = steps.create_form.form_id;
      if (step.done || formId === null) return null;
      return (
        <p>
          <FormattedMessage id="quickSetup.publish.text" values={{ id: String(formId), link: (chunks) => <Link to={`/forms/${formId}`}>{chunks}</Link> }} />
        </p>
      );
    }
    case 'make_test_payment': {
      const paymentId = step.payment_id;
      if (step.done && paymentId !== null) {
        return (
          <p>
            <FormattedMessage id="quickSetup.pay.done" values={{ id: String(paymentId), link: (chunks) => <Link to={`/payments/${paymentId}`}>{chunks}</Link> }} />
          </p>
        );
      }
      if (step.form_id === null || !steps.connect_test_mode.done) return <p className="muted">{t('quickSetup.pay.first')}</p>;
      if (step.gateways.length === 0) {
        return (
          <p>
            <FormattedMessage
              id="quickSetup.pay.live"
              values={{ gateways: steps.connect_test_mode.gateways.map(name).join(', '), link: (chunks) => <Link to="/gateways">{chunks}</Link> }}
            />
          </p>
        );
      }
      return (
        <div className="stack">
          <p>{t('quickSetup.pay.intro')}</p>
          <ul>
            {step.gateways.map((id) => (
              <li key={id}>{t('quickSetup.pay.with', { gateway: name(id), means: entry(id)?.test_payment ?? t('quickSetup.pay.testMeans') })}</li>
            ))}
          </ul>
          <p>
            <a className="button" href={hostedPageUrl(step.form_id)} target="_blank" rel="noopener" onClick={onOpenPage}>
              {t('quickSetup.pay.open')}
              <span className="visually-hidden">{t('quickSetup.pay.newTab')}</span>
            </a>
          </p>
          <p className="muted">{t('quickSetup.pay.turnsDone')}</p>
        </div>
      );
    }
  }
}
