import { useCallback } from 'react';
import { useIntl } from 'react-intl';

type Values = Record<string, string | number | Date | null | undefined>;

/** A screen's plain-text messages: `t('payments.list.empty')`, `t('list.pager.page', { page })` (rich texts use <FormattedMessage>). */
export function useT(): (id: string, values?: Values) => string {
  const intl = useIntl();
  return useCallback((id: string, values?: Values) => intl.formatMessage({ id }, values), [intl]);
}

/** What `useT()` gives: pure screen logic (the payment log's sentences, a refund amount's errors) takes it as an argument, so it stays testable without React. */
export type Translate = ReturnType<typeof useT>;
