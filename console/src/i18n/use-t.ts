import { useCallback } from 'react';
import { useIntl } from 'react-intl';

type Values = Record<string, string | number | Date | null | undefined>;

/** A screen's plain-text messages: `t('payments.list.empty')`, `t('list.pager.page', { page })` (rich texts use <FormattedMessage>). */
export function useT(): (id: string, values?: Values) => string {
  const intl = useIntl();
  return useCallback((id: string, values?: Values) => intl.formatMessage({ id }, values), [intl]);
}
