// French: "vous" and "carte" for the eCard, as the service's first French strings had them. French spacing is
// written as escapes so it survives editors: a narrow no-break space (\u202f) inside « » and before ! ? ;, a
// no-break space (\u00a0) before a colon.
import type { Catalogue } from './en.ts';

export const fr: Catalogue = {
  // The card page and the email.
  intro: '{sender} vous a envoyé une carte',
  open: 'Ouvrir votre carte',
  from: 'De la part de {sender}',
  personalMessage: 'Message personnel',
  continue: 'Continuer',
  // The sealed envelope.
  envelopeTo: 'Pour {recipient}',
  envelopeHint: 'Cliquez, touchez ou appuyez sur Entrée pour l’ouvrir',
  replay: 'Revoir',
  playAudio: 'Lancer la musique',
  pauseAudio: 'Mettre la musique en pause',
  watchVideo: 'Voir la vidéo',
  // Under the card.
  sayThanks: 'Dire merci',
  thanksLabel: 'Votre message pour {sender}',
  thanksSend: 'Envoyer mes remerciements',
  thanksSent: 'Merci\u202f! Votre message est en route.',
  thanksLimit: 'Vous avez déjà envoyé trois remerciements pour cette carte.',
  thanksInvalid: 'Veuillez écrire un message de 1 à 1\u202f000 caractères.',
  print: 'Imprimer',
  download: 'Télécharger',
  share: 'Partager cette carte',
  copyLink: 'Copier le lien',
  linkCopied: 'Lien copié',
  shareByEmail: 'E-mail',
  notFound: 'Cette carte n’existe pas ou n’a pas encore été envoyée.',
  backToCard: 'Retour à la carte',
  // The email.
  preheader: '{sender} vous a envoyé une carte. Ouvrez-la pour découvrir la carte et son message.',
  buttonTrouble: 'Si le bouton ne fonctionne pas, ouvrez ce lien\u00a0:',
  gift: 'Vous avez reçu une carte cadeau {brand} de {amount}.',
  claimGift: 'Récupérer votre carte cadeau',
  claimBy: 'À récupérer au plus tard le {date}.',
  unsubscribe: 'Se désabonner',
  // Emails to the sender.
  receiptSubject: '{recipient} a ouvert votre carte',
  receiptBody: '{recipient} a ouvert la carte «\u202f{card}\u202f» que vous avez envoyée.',
  thanksSubject: '{recipient} vous dit merci',
  thanksBody: '{recipient} a répondu à la carte «\u202f{card}\u202f» que vous avez envoyée\u00a0:',
};
