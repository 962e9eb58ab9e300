// The few words the service itself writes into emails and the eCard page, per locale (English otherwise).
export interface Strings {
  intro: (sender: string) => string;
  open: string;
  personalMessage: string;
  /** The share page's link to the eCard's url_redirect_after_send. */
  continue: string;
}

const STRINGS: Record<string, Strings> = {
  en: { intro: (s) => `${s} sent you an eCard.`, open: 'Open your eCard', personalMessage: 'Personal message', continue: 'Continue' },
  fr: { intro: (s) => `${s} vous a envoyé une carte.`, open: 'Ouvrir votre carte', personalMessage: 'Message personnel', continue: 'Continuer' },
  de: { intro: (s) => `${s} hat Ihnen eine Karte geschickt.`, open: 'Karte öffnen', personalMessage: 'Persönliche Nachricht', continue: 'Weiter' },
  es: { intro: (s) => `${s} te ha enviado una tarjeta.`, open: 'Abrir tu tarjeta', personalMessage: 'Mensaje personal', continue: 'Continuar' },
};

/** `fr-CA` → French; unknown locales → English. */
export function stringsFor(locale: string): { lang: string; strings: Strings } {
  const lang = locale.toLowerCase().split(/[-_]/)[0] ?? 'en';
  return STRINGS[lang] ? { lang, strings: STRINGS[lang] } : { lang: 'en', strings: STRINGS.en! };
}
