import { FormattedMessage } from 'react-intl';
import { useSession } from '../../api/session';

/** A signed-in account without `checkout_settings`: what it is, and the way out. */
export function NoAccess() {
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  return (
    <main id="main" className="sign-in">
      <div className="card sign-in-card">
        <h1>
          <FormattedMessage id="noAccess.title" />
        </h1>
        <p>
          <FormattedMessage
            id="noAccess.text"
            values={{ login: user?.login ?? '', strong: (chunks) => <strong>{chunks}</strong>, code: (chunks) => <code>{chunks}</code> }}
          />
        </p>
        <button type="button" className="button" onClick={() => void session.signOut()}>
          <FormattedMessage id="layout.signOut" />
        </button>
      </div>
    </main>
  );
}
