import { useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { components } from '../../../../clients/typescript/index';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorNotice, Success } from '../../components/status';
import { Time } from '../../components/time';
import { useT } from '../../i18n/use-t';
import { FieldsForm } from './fields-form';
import { authorizeUrl, disconnect, saveConnectKind } from './gateway-calls';
import { type CatalogGateway, connectKind, type Mode, modeName, modeState, modeText as modeTextOf, otherMode, type Plan } from './gateway-logic';
import { useGatewayMutation } from './gateway-mutation';

type ModeFacts = components['schemas']['DashboardGatewayModeDto'];

/**
 * One mode of one gateway: its connection and webhook contract as the dashboard reports them, and
 * every way the catalog offers to connect or configure it in that mode.
 */
export function ModePanel({ gateway, mode, facts, plan }: { gateway: CatalogGateway; mode: Mode; facts: ModeFacts | undefined; plan: Plan }) {
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  const inUse = gateway.mode === mode;
  const state = facts ? modeState(facts, t) : null;
  const oauth = connectKind(gateway, 'oauth');
  const ownKeys = connectKind(gateway, 'own_keys');
  const webhook = connectKind(gateway, 'webhook_settings');
  const prefix = `${gateway.id}-${mode}`;
  const name = modeName(mode, t);
  const modeText = modeTextOf(mode, t);
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
        {name} {inUse && <span className="badge badge-in-use">{t('gateways.panel.inUse')}</span>}
      </h3>
      {state ? (
        <dl className="facts">
          <div className="facts-row">
            <dt>{t('gateways.panel.connection')}</dt>
            <dd>
              <span className={facts?.is_connected === 1 ? 'state state-ok' : 'state'}>{state.connection}</span>
            </dd>
          </div>
          <div className="facts-row">
            <dt>{t('gateways.save.webhook')}</dt>
            <dd>
              <span className={`state state-${state.webhookTone}`}>{state.webhook}</span>
            </dd>
          </div>
          {state.verifiedAt && (
            <div className="facts-row">
              <dt>{t('gateways.panel.verifiedOn')}</dt>
              <dd><Time iso={state.verifiedAt} /></dd>
            </div>
          )}
          {state.lastError && (
            <div className="facts-row">
              <dt>{t('gateways.panel.lastError')}</dt>
              <dd>{state.lastError}</dd>
            </div>
          )}
        </dl>
      ) : (
        <p className="muted">{t('gateways.panel.nothing')}</p>
      )}

      {oauth && <OAuthConnect gateway={gateway} mode={mode} connected={facts?.is_connected === 1} />}

      {ownKeys && (
        <details className="disclosure">
          <summary>{t('gateways.ownKeys.title', { mode: modeText })}</summary>
          {plan !== 'pro' && (
            <p className="notice notice-info">
              <FormattedMessage id="gateways.ownKeys.free" values={{ gateway: gateway.label, strong: (chunks) => <strong>{chunks}</strong> }} />
            </p>
          )}
          <FieldsForm
            idPrefix={`${prefix}-own-keys`}
            fields={ownKeys.fields}
            submitLabel={t('gateways.connectMode', { mode: modeText })}
            save={(values) => saveConnectKind('own_keys', gateway.id, mode, values)}
          >
            <p className="field-help">{t('gateways.ownKeys.help', { mode: modeText, gateway: gateway.label })}</p>
          </FieldsForm>
        </details>
      )}

      {webhook && (
        <details className="disclosure">
          <summary>{t('gateways.webhook.title', { mode: modeText })}</summary>
          <FieldsForm
            idPrefix={`${prefix}-webhook`}
            fields={webhook.fields}
            submitLabel={t('gateways.webhook.submit')}
            save={(values) => saveConnectKind('webhook_settings', gateway.id, mode, values)}
          >
            <p className="field-help">{t('gateways.webhook.help', { gateway: gateway.label })}</p>
          </FieldsForm>
        </details>
      )}

      {disconnecting.isError && <ErrorNotice error={disconnecting.error} />}
      {disconnecting.isSuccess && facts?.is_connected !== 1 && <Success>{t('gateways.disconnect.done', { gateway: gateway.label, mode })}</Success>}
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
          <p className="muted">{t('gateways.disconnect.otherMode', { mode: modeText, inUse: otherMode(mode) })}</p>
        ))}
    </section>
  );
}

/** The OAuth connect: the browser leaves for the gateway's page and comes back to the console. */
function OAuthConnect({ gateway, mode, connected }: { gateway: CatalogGateway; mode: Mode; connected: boolean }) {
  // No invalidation here: on success the page is left; nothing changes until the callback.
  const t = useT();
  const [leaving, setLeaving] = useState(false);
  const start = useGatewayMutation(async () => {
    const url = await authorizeUrl(mode);
    setLeaving(true);
    window.location.assign(url);
  });
  const modeText = modeTextOf(mode, t);
  return (
    <div className="connect-oauth">
      <button type="button" className="button button-primary" disabled={start.isPending || leaving} onClick={() => start.mutate(undefined)}>
        {t('gateways.oauth.connect', { again: connected ? 'yes' : 'no', mode: modeText, gateway: gateway.label })}
      </button>
      <p className="field-help">{t('gateways.oauth.help', { gateway: gateway.label })}</p>
      {leaving && (
        <p role="status" className="muted">
          {t('gateways.oauth.opening', { gateway: gateway.label })}
        </p>
      )}
      {start.isError && <ErrorNotice error={start.error} />}
    </div>
  );
}

function Disconnect({ gateway, mode, busy, confirm }: { gateway: CatalogGateway; mode: Mode; busy: boolean; confirm: (closed: () => void) => void }) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const modeText = modeTextOf(mode, t);
  return (
    <div className="disconnect">
      <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
        {t('gateways.disconnect.button', { mode: modeText })}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('gateways.disconnect.title', { gateway: gateway.label, mode })}
        confirmLabel={t('gateways.disconnect.button', { mode: modeText })}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => confirm(() => setConfirming(false))}
      >
        <p>{t('gateways.disconnect.text', { gateway: gateway.label, mode })}</p>
      </ConfirmDialog>
    </div>
  );
}
