import { useState } from 'react';
import type { components } from '../../../../clients/typescript/index';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorNotice, Success } from '../../components/status';
import { setMode } from './gateway-calls';
import { type CatalogGateway, type LiveGap, liveReadiness, modeName, otherMode } from './gateway-logic';
import { useGatewayMutation } from './gateway-mutation';

type DashboardGateway = components['schemas']['DashboardGatewayDto'];

/**
 * The mode in use and the switch to the other one. Going live is offered only when live mode is
 * ready (connected with live keys, its webhook verified); otherwise the screen says what is missing
 * and links to where it is done. Either way the switch asks first, saying what changes for payers.
 * The API itself lets an administrator switch at any time (the interface's set-mode has no other
 * condition): the guard is the console's.
 */
export function ModeSwitch({ gateway, facts }: { gateway: CatalogGateway; facts: DashboardGateway | undefined }) {
  const [confirming, setConfirming] = useState(false);
  const next = otherMode(gateway.mode);
  const mutation = useGatewayMutation(() => setMode(gateway.id, next));
  const readiness = liveReadiness(gateway.id, facts?.modes.live);
  const nextText = modeName(next).toLowerCase();
  const titleId = `${gateway.id}-live-gaps`;

  return (
    <div className="mode-switch">
      <p>
        Payments use <strong>{modeName(gateway.mode).toLowerCase()}</strong>.
      </p>
      {next === 'live' && !readiness.ready ? null : (
        <button type="button" className="button" disabled={mutation.isPending} onClick={() => setConfirming(true)}>
          Switch to {nextText}…
        </button>
      )}
      {!readiness.ready && (
        <div className={`notice ${gateway.mode === 'live' ? 'notice-error' : 'notice-info'}`} role="group" aria-labelledby={titleId}>
          <p className="notice-title" id={titleId}>
            {gateway.mode === 'live' ? `Live mode is in use but not ready: payers cannot pay with ${gateway.label}` : `Live mode is not ready yet`}
          </p>
          <p>Before payers can pay real money with {gateway.label}:</p>
          <Gaps gaps={readiness.gaps} />
        </div>
      )}
      {mutation.isError && <ErrorNotice error={mutation.error} />}
      {mutation.isSuccess && mutation.data.mode === gateway.mode && (
        <Success>
          {gateway.label} now takes payments in {modeName(gateway.mode).toLowerCase()}.
        </Success>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Switch ${gateway.label} to ${nextText}?`}
        confirmLabel={`Switch to ${nextText}`}
        busy={mutation.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => mutation.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        {next === 'live' ? (
          <>
            <p>From now on, payers who choose {gateway.label} pay real money: their cards and accounts are charged, and the money goes to your {gateway.label} account.</p>
            <ul>
              <li>Test cards and test accounts stop working on your payment pages.</li>
              <li>New payments show as live in Payments; test payments already made stay as they are.</li>
              <li>You can switch back to test mode at any time.</li>
            </ul>
          </>
        ) : (
          <>
            <p>From now on, payers cannot pay real money with {gateway.label}: checkout takes test cards and test accounts only, and no money moves.</p>
            <ul>
              <li>Anyone who tries to pay with a real card is refused until you switch back to live mode.</li>
              <li>Live payments already made are kept, and live mode stays connected.</li>
            </ul>
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}

function Gaps({ gaps }: { gaps: LiveGap[] }) {
  return (
    <ul>
      {gaps.map((gap) => (
        <li key={gap.text}>
          <a href={`#${gap.target}`}>{gap.text}</a>
        </li>
      ))}
    </ul>
  );
}
