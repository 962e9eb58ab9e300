// Spanish: "tú", "tarjeta" for the eCard and "canjear" for claiming a gift, as the service's first Spanish strings
// had them; «» quotes.
import type { Catalogue } from './en.ts';

export const es: Catalogue = {
  // The card page and the email.
  intro: '{sender} te ha enviado una tarjeta',
  open: 'Abre tu tarjeta',
  from: 'De {sender}',
  personalMessage: 'Mensaje personal',
  continue: 'Continuar',
  // The sealed envelope.
  envelopeTo: 'Para {recipient}',
  envelopeHint: 'Haz clic, toca o pulsa Enter para abrir',
  replay: 'Volver a ver',
  playAudio: 'Reproducir música',
  pauseAudio: 'Pausar música',
  watchVideo: 'Ver el vídeo',
  // Under the card.
  sayThanks: 'Dar las gracias',
  thanksLabel: 'Tu mensaje para {sender}',
  thanksSend: 'Enviar agradecimiento',
  thanksSent: '¡Gracias! Tu mensaje ya va en camino.',
  thanksLimit: 'Ya has enviado tres agradecimientos por esta tarjeta.',
  thanksInvalid: 'Escribe un mensaje de 1 a 1000 caracteres.',
  print: 'Imprimir',
  download: 'Descargar',
  share: 'Compartir esta tarjeta',
  copyLink: 'Copiar enlace',
  linkCopied: 'Enlace copiado',
  shareByEmail: 'Correo electrónico',
  notFound: 'Esta tarjeta no existe o todavía no se ha enviado.',
  backToCard: 'Volver a la tarjeta',
  // The email.
  preheader: '{sender} te ha enviado una tarjeta. Ábrela para ver la tarjeta y el mensaje.',
  buttonTrouble: 'Si el botón no funciona, abre este enlace:',
  gift: 'Has recibido una tarjeta regalo de {brand} por {amount}.',
  claimGift: 'Canjea tu tarjeta regalo',
  claimBy: 'Canjéala hasta el {date}.',
  unsubscribe: 'Cancelar la suscripción',
  // Emails to the sender.
  receiptSubject: '{recipient} ha abierto tu tarjeta',
  receiptBody: '{recipient} ha abierto la tarjeta «{card}» que enviaste.',
  thanksSubject: '{recipient} te da las gracias',
  thanksBody: '{recipient} ha respondido a la tarjeta «{card}» que enviaste:',
};
