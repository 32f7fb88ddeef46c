import { NavLink, Outlet } from 'react-router';
import { SECTIONS } from '../api/capabilities';
import { useSession } from '../api/session';

/** The frame of every signed-in screen: skip link, navigation (the sections the user's role may open), who is signed in, sign out. */
export function Layout() {
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Checkout</span>
        <nav aria-label="Main">
          <ul className="nav">
            {SECTIONS.filter((section) => session.can(section.capability)).map((section) => (
              <li key={section.to}>
                <NavLink to={section.to} end={section.end}>
                  {section.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          {user && <span className="account-name">{user.display_name || user.login}</span>}
          <NavLink to="/account">Your account</NavLink>
          <button type="button" className="button button-quiet" onClick={() => void session.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
