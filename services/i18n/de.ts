// German: "Sie", "Karte" for the eCard and "schicken" for sending it (buttons say "senden"), as the service’s first
// German strings had them; „“ quotes.
import type { Catalogue } from './en.ts';

export const de: Catalogue = {
  // The card page and the email.
  intro: '{sender} hat Ihnen eine Karte geschickt',
  open: 'Karte öffnen',
  from: 'Von {sender}',
  personalMessage: 'Persönliche Nachricht',
  continue: 'Weiter',
  // The sealed envelope.
  envelopeTo: 'Für {recipient}',
  envelopeHint: 'Zum Öffnen klicken, tippen oder Enter drücken',
  replay: 'Noch einmal ansehen',
  playAudio: 'Musik abspielen',
  pauseAudio: 'Musik pausieren',
  watchVideo: 'Video ansehen',
  // Under the card.
  sayThanks: 'Danke sagen',
  thanksLabel: 'Ihre Nachricht an {sender}',
  thanksSend: 'Dankeschön senden',
  thanksSent: 'Vielen Dank! Ihre Nachricht ist unterwegs.',
  thanksLimit: 'Sie haben für diese Karte bereits drei Dankeschöns geschickt.',
  thanksInvalid: 'Bitte schreiben Sie eine Nachricht mit 1 bis 1.000 Zeichen.',
  print: 'Drucken',
  download: 'Herunterladen',
  share: 'Diese Karte teilen',
  copyLink: 'Link kopieren',
  linkCopied: 'Link kopiert',
  shareByEmail: 'E-Mail',
  notFound: 'Diese Karte gibt es nicht, oder sie wurde noch nicht verschickt.',
  backToCard: 'Zurück zur Karte',
  // The email.
  preheader: '{sender} hat Ihnen eine Karte geschickt. Öffnen Sie sie, um Karte und Nachricht zu sehen.',
  buttonTrouble: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
  gift: 'Sie haben einen Geschenkgutschein von {brand} über {amount} erhalten.',
  claimGift: 'Gutschein abholen',
  claimBy: 'Abholen bis {date}.',
  unsubscribe: 'Abmelden',
  // Emails to the sender.
  receiptSubject: '{recipient} hat Ihre Karte geöffnet',
  receiptBody: '{recipient} hat die von Ihnen geschickte Karte „{card}“ geöffnet.',
  thanksSubject: '{recipient} sagt Danke',
  thanksBody: '{recipient} hat auf die von Ihnen geschickte Karte „{card}“ geantwortet:',
};
