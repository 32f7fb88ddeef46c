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
 * Loading, error and success of one query in the same three places on every screen: `children`
 * draws the data once it is there.
 */
export function QueryView<T>({ query, what, children }: { query: UseQueryResult<T>; what: string; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorNotice error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

/** A short confirmation after a change ("Saved."), announced to screen readers. */
export function Success({ children }: { children: ReactNode }) {
  return (
    <p className="notice notice-success" role="status">
      {children}
    </p>
  );
}
