import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ApiError } from '../api/api-error';

/** The API's own message for a failed call; a 403 says plainly what is missing. */
export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  const intl = useIntl();
  const api = error instanceof ApiError ? error : null;
  const title = intl.formatMessage({ id: api?.isForbidden ? 'status.error.forbidden' : 'status.error.title' });
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{title}</p>
      <p>{api ? api.message : intl.formatMessage({ id: 'status.error.unexpected' })}</p>
      {api && Object.keys(api.params).length > 0 && (
        <ul>
          {Object.entries(api.params).map(([field, message]) => (
            <li key={field}>
              <code>{field}</code>: {message}
            </li>
          ))}
        </ul>
      )}
      {retry && !api?.isForbidden && (
        <button type="button" className="button" onClick={retry}>
          <FormattedMessage id="status.error.retry" />
        </button>
      )}
    </div>
  );
}

/** What is loading, as a message id of the catalogs ("Loading payments…"). */
export type LoadingWhat = `status.loading.${string}`;

export function Loading({ what }: { what: LoadingWhat }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <FormattedMessage id={what} />
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

/**
 * Loading, error and success of a screen's queries in the same three places on every screen:
 * `children` draws the data once it is there. With several queries (`queries`), the first error
 * is shown, else "loading" until all have data.
 */
export function QueryView<T>(props: { query: UseQueryResult<T>; what: LoadingWhat; children: (data: T) => ReactNode }): ReactNode;
export function QueryView<T extends readonly unknown[]>(props: { queries: { [K in keyof T]: UseQueryResult<T[K]> }; what: LoadingWhat; children: (data: T) => ReactNode }): ReactNode;
export function QueryView({
  query,
  queries,
  what,
  children,
}: {
  query?: UseQueryResult<unknown>;
  queries?: readonly UseQueryResult<unknown>[];
  what: LoadingWhat;
  children: (data: never) => ReactNode;
}): ReactNode {
  const all = queries ?? [query!];
  const failed = all.find((one) => one.isError);
  if (failed) return <ErrorNotice error={failed.error} retry={() => void failed.refetch()} />;
  if (all.some((one) => one.isPending)) return <Loading what={what} />;
  const data = queries ? all.map((one) => one.data) : all[0].data;
  return <>{(children as (data: unknown) => ReactNode)(data)}</>;
}

/** A short confirmation after a change ("Saved."), announced to screen readers. */
export function Success({ children }: { children: ReactNode }) {
  return (
    <p className="notice notice-success" role="status">
      {children}
    </p>
  );
}
