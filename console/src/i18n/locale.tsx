import { createContext, Fragment, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { IntlProvider } from 'react-intl';
import { CONSOLE_LOCALES, type ConsoleLocale, negotiateLocale } from '../../../src/common/i18n/index';
import { unwrap } from '../api/api-error';
import { api } from '../api/client';
import { useSession } from '../api/session';
import { setDisplayLocale } from '../format';
import { loadCatalog, type Messages, SOURCE_MESSAGES } from './catalogs';

/** The console's language for this browser: its languages, most wanted first, matched to the console's (English otherwise). */
export function browserLocale(): ConsoleLocale {
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language];
  return negotiateLocale(wanted, CONSOLE_LOCALES, 'en');
}

interface LocaleChoice {
  /** The language the console speaks now */
  locale: ConsoleLocale;
  /** What the user chose: a language, or null to follow the browser */
  preference: ConsoleLocale | null;
  /** Choose a language (null: the browser's). Signed in, it is stored on the account (PUT /auth/preferences) and follows the user. */
  choose(preference: ConsoleLocale | null): Promise<void>;
}

const LocaleContext = createContext<LocaleChoice | null>(null);

/**
 * The console's language: the signed-in user's choice (stored on their account, `user.locale` of
 * the session), else the browser's language. Before sign-in a choice holds for this page only.
 * Everything under it is drawn again when the language changes (`key`), so the money and times of
 * format.ts, which read the current language, change with the texts.
 */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const signedIn = session.state.status === 'signed-in' ? session.state.user : null;
  const [local, setLocal] = useState<ConsoleLocale | null>(null);
  const preference = signedIn ? signedIn.locale : local;
  const locale = preference ?? browserLocale();
  const [catalogs, setCatalogs] = useState<Partial<Record<ConsoleLocale, Messages>>>({ en: SOURCE_MESSAGES });
  const messages = catalogs[locale];
  setDisplayLocale(messages ? locale : 'en');

  useEffect(() => {
    if (messages) return;
    let current = true;
    loadCatalog(locale)
      // A catalog that cannot be loaded (offline, a new deploy removed the chunk): English rather than nothing.
      .catch(() => SOURCE_MESSAGES)
      .then((loaded) => current && setCatalogs((known) => ({ ...known, [locale]: loaded })));
    return () => {
      current = false;
    };
  }, [locale, messages]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const { userLocaleChanged } = session;
  const choose = useCallback(
    async (next: ConsoleLocale | null) => {
      if (!signedIn) return setLocal(next);
      const saved = unwrap(await api.PUT('/auth/preferences', { body: { locale: next } }));
      userLocaleChanged(saved.locale);
    },
    [signedIn, userLocaleChanged],
  );

  const value = useMemo<LocaleChoice>(() => ({ locale, preference, choose }), [locale, preference, choose]);
  // The few milliseconds a language's chunk takes to load: nothing rather than a flash of English.
  if (!messages) return null;
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={locale} defaultLocale="en" messages={messages} onError={reportMissing}>
        <LocaleKey locale={locale}>{children}</LocaleKey>
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

function LocaleKey({ locale, children }: { locale: ConsoleLocale; children: ReactNode }) {
  return <Fragment key={locale}>{children}</Fragment>;
}

/** A missing id or a broken message is a bug the catalog spec should have caught: said in the console log, never thrown at the user. */
function reportMissing(error: unknown): void {
  console.error(error);
}

export function useLocale(): LocaleChoice {
  const choice = useContext(LocaleContext);
  if (!choice) throw new Error('useLocale outside LocaleProvider');
  return choice;
}
