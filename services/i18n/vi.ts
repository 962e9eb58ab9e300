// Vietnamese: "bạn" and "thiệp" for the eCard; "thẻ quà tặng" for the gift card, so the two never read alike;
// “” quotes.
import type { Catalogue } from './en.ts';

export const vi: Catalogue = {
  // The card page and the email.
  intro: '{sender} đã gửi cho bạn một tấm thiệp',
  open: 'Mở thiệp của bạn',
  from: 'Từ {sender}',
  personalMessage: 'Lời nhắn riêng',
  continue: 'Tiếp tục',
  // The sealed envelope.
  envelopeTo: 'Gửi {recipient}',
  envelopeHint: 'Nhấp, chạm hoặc nhấn Enter để mở',
  replay: 'Xem lại',
  playAudio: 'Phát nhạc',
  pauseAudio: 'Tạm dừng nhạc',
  watchVideo: 'Xem video',
  // Under the card.
  sayThanks: 'Nói lời cảm ơn',
  thanksLabel: 'Lời nhắn của bạn gửi {sender}',
  thanksSend: 'Gửi lời cảm ơn',
  thanksSent: 'Cảm ơn bạn! Lời nhắn của bạn đang được gửi đi.',
  thanksLimit: 'Bạn đã gửi ba lời cảm ơn cho tấm thiệp này.',
  thanksInvalid: 'Vui lòng viết lời nhắn từ 1 đến 1.000 ký tự.',
  print: 'In',
  download: 'Tải xuống',
  share: 'Chia sẻ tấm thiệp này',
  copyLink: 'Sao chép liên kết',
  linkCopied: 'Đã sao chép liên kết',
  shareByEmail: 'Email',
  notFound: 'Tấm thiệp này không tồn tại hoặc chưa được gửi.',
  backToCard: 'Quay lại tấm thiệp',
  // The email.
  preheader: '{sender} đã gửi cho bạn một tấm thiệp. Hãy mở ra để xem thiệp và lời nhắn.',
  buttonTrouble: 'Nếu nút không hoạt động, hãy mở liên kết này:',
  gift: 'Bạn đã nhận được thẻ quà tặng {brand} trị giá {amount}.',
  claimGift: 'Nhận thẻ quà tặng',
  claimBy: 'Hạn nhận: {date}.',
  unsubscribe: 'Hủy đăng ký',
  // Emails to the sender.
  receiptSubject: '{recipient} đã mở thiệp của bạn',
  receiptBody: '{recipient} đã mở tấm thiệp “{card}” bạn gửi.',
  thanksSubject: '{recipient} gửi lời cảm ơn',
  thanksBody: '{recipient} đã trả lời tấm thiệp “{card}” bạn gửi:',
};
