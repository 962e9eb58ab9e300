// The built-in strings of what recipients see (the card page, the email, the service's own emails to senders;
// later the widget), in English: the catalogue every other language must match key for key, placeholder for
// placeholder (test/unit/i18n.test.ts). `{name}` placeholders are filled by `format` (services/i18n/locale.ts).
export const en = {
  // The card page and the email.
  intro: '{sender} sent you an eCard',
  open: 'Open your eCard',
  from: 'From {sender}',
  personalMessage: 'Personal message',
  continue: 'Continue',
  // The card page: the call-to-action's label when the eCard names none.
  cardLink: 'Open the link',
  // The sealed envelope.
  envelopeTo: 'For {recipient}',
  envelopeHint: 'Click, tap or press Enter to open',
  replay: 'Replay',
  playAudio: 'Play music',
  pauseAudio: 'Pause music',
  watchVideo: 'Watch the video',
  // Under the card.
  sayThanks: 'Say thank you',
  thanksLabel: 'Your message to {sender}',
  thanksSend: 'Send thank you',
  thanksSent: 'Thank you! Your message is on its way.',
  thanksLimit: 'You have already sent three thank-yous for this card.',
  thanksInvalid: 'Please write a message of 1 to 1,000 characters.',
  print: 'Print',
  download: 'Download',
  share: 'Share this eCard',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  shareByEmail: 'Email',
  notFound: 'This eCard does not exist, or it has not been sent.',
  backToCard: 'Back to the eCard',
  // The email.
  preheader: '{sender} sent you an eCard. Open it to see your card and message.',
  buttonTrouble: 'If the button does not work, open this link:',
  gift: 'You received a {amount} {brand} gift card.',
  claimGift: 'Claim your gift card',
  claimBy: 'Claim it by {date}.',
  unsubscribe: 'Unsubscribe',
  // Emails to the sender.
  receiptSubject: '{recipient} opened your eCard',
  receiptBody: '{recipient} opened the eCard “{card}” you sent.',
  thanksSubject: '{recipient} says thank you',
  thanksBody: '{recipient} replied to the eCard “{card}” you sent:',
  someone: 'Someone',
} as const;

export type StringKey = keyof typeof en;
export type Catalogue = Record<StringKey, string>;
