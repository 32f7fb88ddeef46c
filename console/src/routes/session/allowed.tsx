import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, Navigate } from 'react-router';
import { firstSectionFor } from '../../api/capabilities';
import { useSession } from '../../api/session';
import { Page } from '../../components/page';

/**
 * A screen for holders of `capability` only: anyone else (a bookmark, a link someone sent) gets a
 * plain "no access" screen naming their role and a way to a screen they may use. The API refuses
 * the requests anyway; this only spares them a screen of errors.
 */
export function Allowed({ capability, children }: { capability: string; children: ReactNode }) {
  const session = useSession();
  if (session.can(capability)) return <>{children}</>;
  return <NoAccessHere />;
}

export function NoAccessHere() {
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  const home = firstSectionFor(session.can);
  const intl = useIntl();
  return (
    <Page title={intl.formatMessage({ id: 'noAccessHere.title' })}>
      <p>
        <FormattedMessage id="noAccessHere.text" values={{ role: user?.role ?? 'none', strong: (chunks) => <strong>{chunks}</strong> }} />
      </p>
      {home && (
        <p>
          <Link to={home}>
            <FormattedMessage id="noAccessHere.home" />
          </Link>
        </p>
      )}
    </Page>
  );
}

/** `/`: the dashboard for those who may see it; anyone else goes to their first section. */
export function Home({ dashboard, capability }: { dashboard: ReactNode; capability: string }) {
  const session = useSession();
  if (session.can(capability)) return <>{dashboard}</>;
  const home = firstSectionFor(session.can);
  return home && home !== '/' ? <Navigate to={home} replace /> : <NoAccessHere />;
}
