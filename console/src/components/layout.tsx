import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { NavLink, Outlet, useLocation } from 'react-router';
import { SECTIONS } from '../api/capabilities';
import { useSession } from '../api/session';
import { LanguageSwitch } from './language-switch';

/**
 * The frame of every signed-in screen: skip link, navigation (the sections the user's role may
 * open), who is signed in, sign out. On a narrow screen (styles.css) the navigation and the
 * account links fold behind a menu button: Escape closes it and gives focus back to the button,
 * following a link closes it.
 */
export function Layout() {
  const intl = useIntl();
  const session = useSession();
  const user = session.state.status === 'signed-in' ? session.state.user : null;
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  }

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        <FormattedMessage id="layout.skipToContent" />
      </a>
      <header className={menuOpen ? 'topbar menu-open' : 'topbar'} onKeyDown={closeOnEscape}>
        <span className="brand">Checkout</span>
        <button
          ref={menuButton}
          type="button"
          className="button menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <FormattedMessage id="layout.menu" />
        </button>
        <div id="site-menu" className="site-menu">
          <nav aria-label={intl.formatMessage({ id: 'layout.nav.label' })}>
            <ul className="nav">
              {SECTIONS.filter((section) => session.can(section.capability)).map((section) => (
                <li key={section.to}>
                  <NavLink to={section.to} end={section.end}>
                    <FormattedMessage id={section.label} />
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="account">
            {user && <span className="account-name">{user.display_name || user.login}</span>}
            <NavLink to="/account">
              <FormattedMessage id="layout.account" />
            </NavLink>
            <LanguageSwitch />
            <button type="button" className="button button-quiet" onClick={() => void session.signOut()}>
              <FormattedMessage id="layout.signOut" />
            </button>
          </div>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
