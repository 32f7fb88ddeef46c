import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../../clients/typescript/index';
import { unwrap } from '../../../api/api-error';
import { api } from '../../../api/client';
import { dashboardKeys, dashboardQuery } from '../../../api/dashboard';
import { hostedPageUrl } from '../../../api/forms';
import { catalogQuery } from '../../../api/gateways';
import { ErrorNotice } from '../../../components/status';

type Dashboard = components['schemas']['DashboardDto'];
type Step = components['schemas']['QuickSetupProgressStepDto'];
type StepId = Step['id'];
type GatewayId = Step['gateways'][number];
type CatalogEntry = components['schemas']['GatewayCatalogEntryDto'];

const TITLES: Record<StepId, string> = {
  connect_test_mode: 'Connect a gateway in test mode',
  create_form: 'Create a payment form',
  publish_form: 'Publish the form',
  make_test_payment: 'Make a test payment',
};

/** How often the panel looks for the test payment while the payer's tab is open elsewhere. */
const WAIT_FOR_PAYMENT_MS = 3000;

/**
 * Quick setup on the dashboard: from test mode to a first test payment seen in Payments
 * (`quick_setup_progress`, each step done only while its fact holds). Going live is a later,
 * separate section: the gateways screen's live switch.
 */
export function QuickSetup({ dashboard }: { dashboard: Dashboard }) {
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
      <h2 id="setup-title">Quick setup: your first test payment</h2>
      <p>
        <progress max={steps.length} value={done} aria-labelledby="setup-progress" />{' '}
        <span id="setup-progress">
          {done} of {steps.length} steps done
        </span>
      </p>
      <ol className="steps">
        {steps.map((step) => (
          <li key={step.id} className={step.done ? 'step step-done' : 'step'}>
            <span className="step-state">{step.done ? 'Done' : 'To do'}</span> {TITLES[step.id]}
            <StepDetail step={step} steps={byId} onOpenPage={() => setWaiting(true)} />
          </li>
        ))}
      </ol>
      <h3>Going live (later)</h3>
      <p>
        Test payments move no money. When you are ready for real payments, connect live mode and switch each gateway to live on the{' '}
        <Link to="/gateways">Gateways screen</Link>: it says what is still missing before it offers the switch.
      </p>
      {skip.isError && <ErrorNotice error={skip.error} />}
      <button type="button" className="button button-quiet" disabled={skip.isPending} onClick={() => skip.mutate()}>
        {allDone ? 'Hide quick setup' : 'Skip quick setup'}
      </button>
    </section>
  );
}

function StepDetail({ step, steps, onOpenPage }: { step: Step; steps: Record<StepId, Step>; onOpenPage: () => void }) {
  // Gateways' names and their test means (the provider's test card or sandbox account) are the catalog's.
  const catalog = useQuery(catalogQuery);
  const entry = (id: GatewayId): CatalogEntry | undefined => catalog.data?.gateways.find((gateway) => gateway.id === id);
  const name = (id: GatewayId) => entry(id)?.label ?? id;
  switch (step.id) {
    case 'connect_test_mode':
      return step.done ? <> ({step.gateways.map(name).join(', ')})</> : <p><Link to="/gateways">Connect test mode on the Gateways screen</Link></p>;
    case 'create_form':
      if (step.done && step.form_id !== null) return <> (<Link to={`/forms/${step.form_id}`}>form #{step.form_id}</Link>)</>;
      return <p><Link to="/forms/new">Create a form from a template</Link></p>;
    case 'publish_form':
      if (step.done) return null;
      if (steps.create_form.form_id !== null) return <p>Open <Link to={`/forms/${steps.create_form.form_id}`}>form #{steps.create_form.form_id}</Link> and press Publish.</p>;
      return null;
    case 'make_test_payment':
      if (step.done && step.payment_id !== null) return <p>Completed: <Link to={`/payments/${step.payment_id}`}>see payment #{step.payment_id} in Payments</Link>.</p>;
      if (step.form_id === null || !steps.connect_test_mode.done) return <p className="muted">Connect test mode and publish a form first.</p>;
      if (step.gateways.length === 0) {
        return (
          <p>
            {steps.connect_test_mode.gateways.map(name).join(', ')} now takes live payments: switch it back to test mode on the <Link to="/gateways">Gateways screen</Link> to make a
            test payment.
          </p>
        );
      }
      return (
        <div className="stack">
          <p>Pay your form on its page as a payer would. In test mode no money moves:</p>
          <ul>
            {step.gateways.map((id) => (
              <li key={id}>
                {name(id)}: pay with {entry(id)?.test_payment ?? 'the test means its dashboard gives you'}.
              </li>
            ))}
          </ul>
          <p>
            <a className="button" href={hostedPageUrl(step.form_id)} target="_blank" rel="noopener" onClick={onOpenPage}>
              Open the payment page in test mode<span className="visually-hidden"> (new tab)</span>
            </a>
          </p>
          <p className="muted">This step turns done once the payment is completed; it then appears in Payments.</p>
        </div>
      );
  }
}
