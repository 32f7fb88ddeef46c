import { useEffect, useRef, useState } from 'react';
import type { components } from '../../../../clients/typescript/index';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorNotice, Success } from '../../components/status';
import { Time } from '../../components/time';
import { FieldsForm } from './fields-form';
import { authorizeUrl, disconnect, saveConnectKind } from './gateway-calls';
import { type CatalogGateway, connectKind, type Mode, modeName, modeState, otherMode, type Plan } from './gateway-logic';
import { useGatewayMutation } from './gateway-mutation';

type ModeFacts = components['schemas']['DashboardGatewayModeDto'];

/**
 * One mode of one gateway: its connection and webhook contract as the dashboard reports them, and
 * every way the catalog offers to connect or configure it in that mode.
 */
export function ModePanel({ gateway, mode, facts, plan }: { gateway: CatalogGateway; mode: Mode; facts: ModeFacts | undefined; plan: Plan }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const inUse = gateway.mode === mode;
  const state = facts ? modeState(facts) : null;
  const oauth = connectKind(gateway, 'oauth');
  const ownKeys = connectKind(gateway, 'own_keys');
  const webhook = connectKind(gateway, 'webhook_settings');
  const prefix = `${gateway.id}-${mode}`;
  const name = modeName(mode);
  const modeText = name.toLowerCase();
  const disconnecting = useGatewayMutation(() => disconnect(gateway.id));
  // Once the mode shows as disconnected, its button (and the dialog) are gone: focus goes to the
  // mode's heading. After that render, not in the mutation's callback: while the modal dialog is
  // still open, everything outside it is inert and cannot take focus.
  const focusHeading = useRef(false);
  const connected = facts?.is_connected === 1;
  useEffect(() => {
    if (!focusHeading.current || connected) return;
    focusHeading.current = false;
    heading.current?.focus();
  }, [connected]);

  return (
    <section className="mode-panel" aria-labelledby={`${prefix}-title ${gateway.id}-title`}>
      <h3 id={`${prefix}-title`} ref={heading} tabIndex={-1}>
        {name} {inUse && <span className="badge badge-in-use">in use</span>}
      </h3>
      {state ? (
        <dl className="facts">
          <div className="facts-row">
            <dt>Connection</dt>
            <dd>
              <span className={facts?.is_connected === 1 ? 'state state-ok' : 'state'}>{state.connection}</span>
            </dd>
          </div>
          <div className="facts-row">
            <dt>Webhook</dt>
            <dd>
              <span className={`state state-${state.webhookTone}`}>{state.webhook}</span>
            </dd>
          </div>
          {state.verifiedAt && (
            <div className="facts-row">
              <dt>Verified on</dt>
              <dd><Time iso={state.verifiedAt} /></dd>
            </div>
          )}
          {state.lastError && (
            <div className="facts-row">
              <dt>Last error</dt>
              <dd>{state.lastError}</dd>
            </div>
          )}
        </dl>
      ) : (
        <p className="muted">The dashboard reports nothing for this mode.</p>
      )}

      {oauth && <OAuthConnect gateway={gateway} mode={mode} connected={facts?.is_connected === 1} />}

      {ownKeys && (
        <details className="disclosure">
          <summary>Connect {modeText} with your own keys</summary>
          {plan !== 'pro' && (
            <p className="notice notice-info">
              This site is on the <strong>Free</strong> plan. Connecting with your own keys works, but on the free plan {gateway.label}’s calls go through the
              platform’s proxy with its fee: your own keys are meant for the Pro plan. On the free plan, connect through {gateway.label}’s page instead.
            </p>
          )}
          <FieldsForm
            idPrefix={`${prefix}-own-keys`}
            fields={ownKeys.fields}
            submitLabel={`Connect ${modeText}`}
            save={(values) => saveConnectKind('own_keys', gateway.id, mode, values)}
          >
            <p className="field-help">The keys of {modeText} from your {gateway.label} account. The service checks them with {gateway.label} and sets up the webhook endpoint.</p>
          </FieldsForm>
        </details>
      )}

      {webhook && (
        <details className="disclosure">
          <summary>Webhook settings for {modeText}</summary>
          <FieldsForm
            idPrefix={`${prefix}-webhook`}
            fields={webhook.fields}
            submitLabel="Save webhook settings"
            save={(values) => saveConnectKind('webhook_settings', gateway.id, mode, values)}
          >
            <p className="field-help">For a webhook endpoint you manage yourself at {gateway.label}. Secrets are stored encrypted and shown only masked.</p>
          </FieldsForm>
        </details>
      )}

      {disconnecting.isError && <ErrorNotice error={disconnecting.error} />}
      {disconnecting.isSuccess && facts?.is_connected !== 1 && <Success>{gateway.label} is disconnected in {modeText}.</Success>}
      {facts?.is_connected === 1 &&
        (inUse ? (
          <Disconnect
            gateway={gateway}
            mode={mode}
            busy={disconnecting.isPending}
            confirm={(closed) => {
              focusHeading.current = true;
              disconnecting.mutate(undefined, {
                onError: () => {
                  focusHeading.current = false;
                },
                onSettled: closed,
              });
            }}
          />
        ) : (
          <p className="muted">
            Disconnecting acts on the mode in use: switch to {modeText} first to disconnect it ({otherMode(mode)} mode is in use now).
          </p>
        ))}
    </section>
  );
}

/** The OAuth connect: the browser leaves for the gateway's page and comes back to the console. */
function OAuthConnect({ gateway, mode, connected }: { gateway: CatalogGateway; mode: Mode; connected: boolean }) {
  // No invalidation here: on success the page is left; nothing changes until the callback.
  const [leaving, setLeaving] = useState(false);
  const start = useGatewayMutation(async () => {
    const url = await authorizeUrl(mode);
    setLeaving(true);
    window.location.assign(url);
  });
  const modeText = modeName(mode).toLowerCase();
  return (
    <div className="connect-oauth">
      <button type="button" className="button button-primary" disabled={start.isPending || leaving} onClick={() => start.mutate(undefined)}>
        {connected ? `Reconnect ${modeText}` : `Connect ${modeText}`} with {gateway.label}
      </button>
      <p className="field-help">You sign in at {gateway.label} and come back here; the service then sets up the webhook endpoint.</p>
      {leaving && (
        <p role="status" className="muted">
          Opening {gateway.label}…
        </p>
      )}
      {start.isError && <ErrorNotice error={start.error} />}
    </div>
  );
}

function Disconnect({ gateway, mode, busy, confirm }: { gateway: CatalogGateway; mode: Mode; busy: boolean; confirm: (closed: () => void) => void }) {
  const [confirming, setConfirming] = useState(false);
  const modeText = modeName(mode).toLowerCase();
  return (
    <div className="disconnect">
      <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
        Disconnect {modeText}
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Disconnect ${gateway.label} in ${modeText}?`}
        confirmLabel={`Disconnect ${modeText}`}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => confirm(() => setConfirming(false))}
      >
        <p>
          The service forgets {gateway.label}’s credentials and webhook settings for {modeText}; checkout with {gateway.label} in {modeText} stops. Payments already
          made are kept. You can connect again at any time.
        </p>
      </ConfirmDialog>
    </div>
  );
}
