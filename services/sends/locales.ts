// The few words the service itself writes into emails and the eCard page, per locale (English otherwise).
export interface Strings {
  intro: (sender: string) => string;
  open: string;
  personalMessage: string;
  /** The share page's link to the eCard's url_redirect_after_send. */
  continue: string;
  /** The gift block: what was given, the claim button, until when. */
  gift: (amount: string, brand: string) => string;
  claimGift: string;
  claimBy: (date: string) => string;
}

const STRINGS: Record<string, Strings> = {
  en: { intro: (s) => `${s} sent you an eCard.`, open: 'Open your eCard', personalMessage: 'Personal message', continue: 'Continue', gift: (a, b) => `You received a ${a} ${b} gift card.`, claimGift: 'Claim your gift card', claimBy: (d) => `Claim it by ${d}.` },
  fr: { intro: (s) => `${s} vous a envoyé une carte.`, open: 'Ouvrir votre carte', personalMessage: 'Message personnel', continue: 'Continuer', gift: (a, b) => `Vous avez reçu une carte cadeau ${b} de ${a}.`, claimGift: 'Obtenir votre carte cadeau', claimBy: (d) => `À réclamer avant le ${d}.` },
  de: { intro: (s) => `${s} hat Ihnen eine Karte geschickt.`, open: 'Karte öffnen', personalMessage: 'Persönliche Nachricht', continue: 'Weiter', gift: (a, b) => `Sie haben einen ${b}-Geschenkgutschein über ${a} erhalten.`, claimGift: 'Gutschein abholen', claimBy: (d) => `Abholen bis ${d}.` },
  es: { intro: (s) => `${s} te ha enviado una tarjeta.`, open: 'Abrir tu tarjeta', personalMessage: 'Mensaje personal', continue: 'Continuar', gift: (a, b) => `Has recibido una tarjeta regalo de ${b} por ${a}.`, claimGift: 'Obtener tu tarjeta regalo', claimBy: (d) => `Canjéala antes del ${d}.` },
};

/** `fr-CA` → French; unknown locales → English. */
export function stringsFor(locale: string): { lang: string; strings: Strings } {
  const lang = locale.toLowerCase().split(/[-_]/)[0] ?? 'en';
  return STRINGS[lang] ? { lang, strings: STRINGS[lang] } : { lang: 'en', strings: STRINGS.en! };
}
