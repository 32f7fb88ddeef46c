import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { CONSOLE_LOCALES, isConsoleLocale } from '../../../src/common/i18n/index';
import { LANGUAGE_NAMES } from '../i18n/catalogs';
import { useLocale } from '../i18n/locale';

const BROWSER = 'browser';

/**
 * The console's language: the browser's (the default) or one of the console's languages, each
 * named in itself. Signed in, the choice is saved on the account and follows the user.
 */
export function LanguageSwitch({ visibleLabel = false }: { visibleLabel?: boolean }) {
  const intl = useIntl();
  const { preference, choose } = useLocale();
  const id = useId();
  const [failed, setFailed] = useState(false);
  return (
    <span className={visibleLabel ? 'field language-switch' : 'language-switch'}>
      <label htmlFor={id} className={visibleLabel ? 'field-label' : 'visually-hidden'}>
        {intl.formatMessage({ id: 'language.label' })}
      </label>
      <select
        id={id}
        value={preference ?? BROWSER}
        aria-invalid={failed || undefined}
        title={failed ? intl.formatMessage({ id: 'language.failed' }) : undefined}
        onChange={(event) => {
          const value = event.target.value;
          setFailed(false);
          choose(isConsoleLocale(value) ? value : null).catch(() => setFailed(true));
        }}
      >
        <option value={BROWSER}>{intl.formatMessage({ id: 'language.browser' })}</option>
        {CONSOLE_LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {LANGUAGE_NAMES[locale]}
          </option>
        ))}
      </select>
    </span>
  );
}
