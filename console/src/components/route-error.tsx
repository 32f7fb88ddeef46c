import { FormattedMessage } from 'react-intl';
import { Link, useRouteError } from 'react-router';
import { ErrorNotice } from './status';

/**
 * What a screen that failed to draw shows instead of a blank page (or the router's developer
 * page): the error as ErrorNotice words it (a 403 says access is missing), and a way back.
 */
export function RouteError() {
  const error = useRouteError();
  return (
    <main id="main" className="main" tabIndex={-1}>
      <h1>
        <FormattedMessage id="routeError.title" />
      </h1>
      <ErrorNotice error={error} />
      <p>
        <Link to="/">
          <FormattedMessage id="routeError.back" />
        </Link>
      </p>
    </main>
  );
}
