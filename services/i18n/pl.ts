// Polish: "Ty" (capitalised, as in a letter) and "e-kartka" for the eCard; „” quotes. Polish past tenses carry
// the doer's gender, which a name does not tell: the strings about the sender or the recipient use the present
// ("przesyła", "ogląda", "dziękuje") or an impersonal form, and names stand after a colon where a case ending
// would be needed ("Od: {sender}").
import type { Catalogue } from './en.ts';

export const pl: Catalogue = {
  // The card page and the email.
  intro: '{sender} przesyła Ci e-kartkę',
  open: 'Otwórz e-kartkę',
  from: 'Od: {sender}',
  personalMessage: 'Osobista wiadomość',
  continue: 'Dalej',
  // The sealed envelope.
  envelopeTo: 'Dla: {recipient}',
  envelopeHint: 'Kliknij, dotknij lub naciśnij Enter, aby otworzyć',
  replay: 'Obejrzyj ponownie',
  playAudio: 'Odtwórz muzykę',
  pauseAudio: 'Wstrzymaj muzykę',
  watchVideo: 'Obejrzyj wideo',
  // Under the card.
  sayThanks: 'Podziękuj',
  thanksLabel: 'Twoja wiadomość dla: {sender}',
  thanksSend: 'Wyślij podziękowanie',
  thanksSent: 'Dziękujemy! Twoja wiadomość jest już w drodze.',
  thanksLimit: 'Za tę e-kartkę wysłano już trzy podziękowania.',
  thanksInvalid: 'Napisz wiadomość o długości od 1 do 1000 znaków.',
  print: 'Drukuj',
  download: 'Pobierz',
  share: 'Udostępnij tę e-kartkę',
  copyLink: 'Kopiuj link',
  linkCopied: 'Skopiowano link',
  shareByEmail: 'E-mail',
  notFound: 'Ta e-kartka nie istnieje lub nie została jeszcze wysłana.',
  backToCard: 'Wróć do e-kartki',
  // The email.
  preheader: '{sender} przesyła Ci e-kartkę. Otwórz ją, aby zobaczyć e-kartkę i wiadomość.',
  buttonTrouble: 'Jeśli przycisk nie działa, otwórz ten link:',
  gift: 'Otrzymujesz kartę podarunkową {brand} o wartości {amount}.',
  claimGift: 'Odbierz kartę podarunkową',
  claimBy: 'Odbierz ją do {date}.',
  unsubscribe: 'Wypisz się',
  // Emails to the sender.
  receiptSubject: '{recipient} ogląda Twoją e-kartkę',
  receiptBody: '{recipient} ogląda wysłaną przez Ciebie e-kartkę „{card}”.',
  thanksSubject: '{recipient} dziękuje za e-kartkę',
  thanksBody: '{recipient} odpowiada na wysłaną przez Ciebie e-kartkę „{card}”:',
};
