import { useSession } from '../../api/session';

/** A signed-in account without `checkout_settings`: what it is, and the way out. */
export function NoAccess() {
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  return (
    <main id="main" className="sign-in">
      <div className="card sign-in-card">
        <h1>No access to the Checkout admin</h1>
        <p>
          You are signed in as <strong>{user?.login}</strong>, but this account does not have the <code>checkout_settings</code> capability that the admin console
          needs. Ask an administrator to give your account the administrator role.
        </p>
        <button type="button" className="button" onClick={() => void session.signOut()}>
          Sign out
        </button>
      </div>
    </main>
  );
}
