import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../api/api-error';

/** The API's own message for a failed call; a 403 says plainly what is missing. */
export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  const api = error instanceof ApiError ? error : null;
  const title = api?.isForbidden ? 'You do not have access to this' : 'Something went wrong';
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">{title}</p>
      <p>{api ? api.message : 'An unexpected error happened in the console.'}</p>
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
          Try again
        </button>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading {what}…
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
export function QueryView<T>(props: { query: UseQueryResult<T>; what: string; children: (data: T) => ReactNode }): ReactNode;
export function QueryView<T extends readonly unknown[]>(props: { queries: { [K in keyof T]: UseQueryResult<T[K]> }; what: string; children: (data: T) => ReactNode }): ReactNode;
export function QueryView({
  query,
  queries,
  what,
  children,
}: {
  query?: UseQueryResult<unknown>;
  queries?: readonly UseQueryResult<unknown>[];
  what: string;
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
