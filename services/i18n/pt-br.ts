// Brazilian Portuguese: "você" and "cartão" for the eCard; "vale-presente" for the gift card, so the two never
// read alike; “” quotes.
import type { Catalogue } from './en.ts';

export const ptBR: Catalogue = {
  // The card page and the email.
  intro: '{sender} enviou um cartão para você',
  open: 'Abra seu cartão',
  from: 'De {sender}',
  personalMessage: 'Mensagem pessoal',
  continue: 'Continuar',
  // The sealed envelope.
  envelopeTo: 'Para {recipient}',
  envelopeHint: 'Clique, toque ou pressione Enter para abrir',
  replay: 'Ver de novo',
  playAudio: 'Tocar música',
  pauseAudio: 'Pausar música',
  watchVideo: 'Assistir ao vídeo',
  // Under the card.
  sayThanks: 'Agradecer',
  thanksLabel: 'Sua mensagem para {sender}',
  thanksSend: 'Enviar agradecimento',
  thanksSent: 'Obrigado! Sua mensagem está a caminho.',
  thanksLimit: 'Você já enviou três agradecimentos por este cartão.',
  thanksInvalid: 'Escreva uma mensagem de 1 a 1.000 caracteres.',
  print: 'Imprimir',
  download: 'Baixar',
  share: 'Compartilhar este cartão',
  copyLink: 'Copiar link',
  linkCopied: 'Link copiado',
  shareByEmail: 'E-mail',
  notFound: 'Este cartão não existe ou ainda não foi enviado.',
  backToCard: 'Voltar ao cartão',
  // The email.
  preheader: '{sender} enviou um cartão para você. Abra para ver o cartão e a mensagem.',
  buttonTrouble: 'Se o botão não funcionar, abra este link:',
  gift: 'Você ganhou um vale-presente {brand} de {amount}.',
  claimGift: 'Resgate seu vale-presente',
  claimBy: 'Resgate até {date}.',
  unsubscribe: 'Cancelar inscrição',
  // Emails to the sender.
  receiptSubject: '{recipient} abriu seu cartão',
  receiptBody: '{recipient} abriu o cartão “{card}” que você enviou.',
  thanksSubject: '{recipient} mandou um agradecimento',
  thanksBody: '{recipient} respondeu ao cartão “{card}” que você enviou:',
};
