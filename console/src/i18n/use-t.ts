import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import type { MessageValues, Translate } from './translate';

export type { Translate } from './translate';

/** A screen's plain-text messages: `t('payments.list.empty')`, `t('list.pager.page', { page })` (rich texts use <FormattedMessage>). */
export function useT(): Translate {
  const intl = useIntl();
  return useCallback((id: string, values?: MessageValues) => intl.formatMessage({ id }, values), [intl]);
}
