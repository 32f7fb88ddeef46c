import { useState } from 'react';
import type { components } from '../../../../clients/typescript/index';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormattedMessage } from 'react-intl';
import { ErrorNotice, Success } from '../../components/status';
import { useT } from '../../i18n/use-t';
import { setMode } from './gateway-calls';
import { type CatalogGateway, type LiveGap, liveReadiness, modeText, otherMode } from './gateway-logic';
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
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const next = otherMode(gateway.mode);
  const mutation = useGatewayMutation(() => setMode(gateway.id, next));
  const readiness = liveReadiness(gateway.id, facts?.modes.live, t);
  const nextText = modeText(next, t);
  const gatewayName = gateway.label;
  const titleId = `${gateway.id}-live-gaps`;

  return (
    <div className="mode-switch">
      <p>
        <FormattedMessage id="gateways.switch.inUse" values={{ mode: modeText(gateway.mode, t), strong: (chunks) => <strong>{chunks}</strong> }} />
      </p>
      {next === 'live' && !readiness.ready ? null : (
        <button type="button" className="button" disabled={mutation.isPending} onClick={() => setConfirming(true)}>
          {t('gateways.switch.open', { mode: nextText })}
        </button>
      )}
      {!readiness.ready && (
        <div className={`notice ${gateway.mode === 'live' ? 'notice-error' : 'notice-info'}`} role="group" aria-labelledby={titleId}>
          <p className="notice-title" id={titleId}>
            {gateway.mode === 'live' ? t('gateways.switch.liveNotReady', { gateway: gatewayName }) : t('gateways.switch.notReady')}
          </p>
          <p>{t('gateways.switch.before', { gateway: gatewayName })}</p>
          <Gaps gaps={readiness.gaps} />
        </div>
      )}
      {mutation.isError && <ErrorNotice error={mutation.error} />}
      {mutation.isSuccess && mutation.data.mode === gateway.mode && (
        <Success>{t('gateways.switch.done', { gateway: gatewayName, mode: gateway.mode })}</Success>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('gateways.switch.title', { gateway: gatewayName, mode: next })}
        confirmLabel={t('gateways.switch.submit', { mode: nextText })}
        busy={mutation.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => mutation.mutate(undefined, { onSettled: () => setConfirming(false) })}
      >
        {next === 'live' ? (
          <>
            <p>{t('gateways.switch.toLive.text', { gateway: gatewayName })}</p>
            <ul>
              <li>{t('gateways.switch.toLive.testCards')}</li>
              <li>{t('gateways.switch.toLive.newPayments')}</li>
              <li>{t('gateways.switch.toLive.back')}</li>
            </ul>
          </>
        ) : (
          <>
            <p>{t('gateways.switch.toTest.text', { gateway: gatewayName })}</p>
            <ul>
              <li>{t('gateways.switch.toTest.refused')}</li>
              <li>{t('gateways.switch.toTest.kept')}</li>
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
