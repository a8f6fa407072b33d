/**
 * The renderer's language (issue 33): react-intl over the shared catalogues.
 * The user's own `language` once the profile is known, else the last one chosen
 * on this device, else the browser's; switching applies at once, no reload.
 */
import {
  DEFAULT_LOCALE,
  type Locale,
  localeOf,
  type MessageId,
  type MessageValues,
  messagesOf,
} from '@ops/shared/i18n/index';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { IntlProvider, useIntl } from 'react-intl';

const STORE = 'ops.language';

let current: Locale = DEFAULT_LOCALE;
/** The app's language now: REST calls send it as Accept-Language so the server answers in it. */
export const appLocale = (): Locale => current;

function initialLocale(): Locale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORE);
  } catch {
    // No storage (private mode): the browser's language.
  }
  return localeOf(stored) ?? localeOf(typeof navigator === 'undefined' ? null : navigator.language) ?? DEFAULT_LOCALE;
}

const LocaleContext = createContext<{ locale: Locale; setLocale(l: Locale): void }>({
  locale: DEFAULT_LOCALE,
  setLocale: () => {},
});

export function LanguageProvider({ children }: { children: ReactNode }) {
  const [locale, setState] = useState<Locale>(() => {
    current = initialLocale();
    return current;
  });
  const setLocale = useCallback((l: Locale) => {
    current = l;
    try {
      localStorage.setItem(STORE, l);
    } catch {
      // Not remembered on this device; the profile still has it.
    }
    document.documentElement.lang = l;
    setState(l);
  }, []);
  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={messagesOf(locale)}>
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

export const useLocale = () => useContext(LocaleContext);

/** `t(id, values)`: a catalogue message in the app's language. */
export function useT(): (id: MessageId, values?: MessageValues) => string {
  const intl = useIntl();
  return useCallback(
    (id: MessageId, values?: MessageValues) =>
      String(intl.formatMessage({ id }, values as Record<string, string | number | Date> | undefined)),
    [intl],
  );
}
