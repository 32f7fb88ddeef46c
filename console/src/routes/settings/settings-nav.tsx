import { NavLink } from 'react-router';

/** The settings screens' own navigation (under the page heading). */
export function SettingsNav() {
  return (
    <nav aria-label="Settings" className="subnav">
      <ul>
        <li>
          <NavLink to="/settings" end>
            General
          </NavLink>
        </li>
        <li>
          <NavLink to="/settings/tags">Tags</NavLink>
        </li>
        <li>
          <NavLink to="/settings/features">Feature requests</NavLink>
        </li>
      </ul>
    </nav>
  );
}
