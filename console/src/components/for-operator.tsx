import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { useT } from '../i18n/use-t';
import { operatorAsk } from './operator-facts';

/**
 * Facts for whoever deployed the service (environment variables, files on the server), folded
 * away from the merchant's words: the summary says who they are for, the text what to ask for.
 */
export function ForOperator({ setting, children }: { setting?: string; children?: ReactNode }) {
  const t = useT();
  const ask = setting ? operatorAsk(setting, t) : null;
  return (
    <details className="disclosure for-operator">
      <summary>
        <FormattedMessage id="forOperator.summary" />
      </summary>
      {ask && (
        <>
          <p>{ask.ask}</p>
          <p className="muted">{ask.detail}</p>
        </>
      )}
      {children}
    </details>
  );
}
