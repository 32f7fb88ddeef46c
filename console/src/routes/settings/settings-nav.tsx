import { useT } from '../../i18n/use-t';
import { NavLink } from 'react-router';

/** The settings screens' own navigation (under the page heading). */
export function SettingsNav() {
  const t = useT();
  return (
    <nav aria-label={t('layout.nav.settings')} className="subnav">
      <ul>
        <li>
          <NavLink to="/settings" end>
            {t('settings.nav.general')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/settings/tags">{t('settings.nav.tags')}</NavLink>
        </li>
        <li>
          <NavLink to="/settings/features">{t('settings.nav.features')}</NavLink>
        </li>
      </ul>
    </nav>
  );
}
