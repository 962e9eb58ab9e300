// Dutch: "je" and "e-card" (the word Dutch uses for an eCard); “” quotes.
import type { Catalogue } from './en.ts';

export const nl: Catalogue = {
  // The card page and the email.
  intro: '{sender} heeft je een e-card gestuurd',
  open: 'Open je e-card',
  from: 'Van {sender}',
  personalMessage: 'Persoonlijk bericht',
  continue: 'Verder',
  // The sealed envelope.
  envelopeTo: 'Voor {recipient}',
  envelopeHint: 'Klik, tik of druk op Enter om te openen',
  replay: 'Opnieuw bekijken',
  playAudio: 'Muziek afspelen',
  pauseAudio: 'Muziek pauzeren',
  watchVideo: 'Bekijk de video',
  // Under the card.
  sayThanks: 'Zeg dankjewel',
  thanksLabel: 'Je bericht aan {sender}',
  thanksSend: 'Dankjewel versturen',
  thanksSent: 'Dankjewel! Je bericht is onderweg.',
  thanksLimit: 'Je hebt al drie bedankjes gestuurd voor deze e-card.',
  thanksInvalid: 'Schrijf een bericht van 1 tot 1.000 tekens.',
  print: 'Afdrukken',
  download: 'Downloaden',
  share: 'Deel deze e-card',
  copyLink: 'Link kopiëren',
  linkCopied: 'Link gekopieerd',
  shareByEmail: 'E-mail',
  notFound: 'Deze e-card bestaat niet of is nog niet verstuurd.',
  backToCard: 'Terug naar de e-card',
  // The email.
  preheader: '{sender} heeft je een e-card gestuurd. Open hem en lees het bericht.',
  buttonTrouble: 'Werkt de knop niet? Open dan deze link:',
  gift: 'Je hebt een cadeaukaart van {brand} ter waarde van {amount} gekregen.',
  claimGift: 'Haal je cadeaukaart op',
  claimBy: 'Haal hem uiterlijk {date} op.',
  unsubscribe: 'Afmelden',
  // Emails to the sender.
  receiptSubject: '{recipient} heeft je e-card geopend',
  receiptBody: '{recipient} heeft de e-card “{card}” geopend die je hebt gestuurd.',
  thanksSubject: '{recipient} zegt dankjewel',
  thanksBody: '{recipient} heeft gereageerd op de e-card “{card}” die je hebt gestuurd:',
};
