// Arabic: "بطاقة" for the eCard ("بطاقة إلكترونية" where it is first named), "بطاقة هدايا" for the gift card;
// «» quotes. Arabic verbs carry the gender of the doer and imperatives that of the reader, which a name does
// not tell: buttons are verbal nouns ("طباعة", "فتح البطاقة"), the reader is addressed in forms written alike
// for both ("وصلتك", "أرسلتها"), and what a named sender or recipient did is told without a gendered verb.
import type { Catalogue } from './en.ts';

export const ar: Catalogue = {
  // The card page and the email.
  intro: 'وصلتك بطاقة إلكترونية من {sender}',
  open: 'فتح البطاقة',
  from: 'من {sender}',
  personalMessage: 'رسالة شخصية',
  continue: 'متابعة',
  // The sealed envelope.
  envelopeTo: 'إلى {recipient}',
  envelopeHint: 'للفتح: نقرة أو لمسة أو مفتاح Enter',
  replay: 'إعادة العرض',
  playAudio: 'تشغيل الموسيقى',
  pauseAudio: 'إيقاف الموسيقى مؤقتًا',
  watchVideo: 'مشاهدة الفيديو',
  // Under the card.
  sayThanks: 'تقديم الشكر',
  thanksLabel: 'رسالتك إلى {sender}',
  thanksSend: 'إرسال الشكر',
  thanksSent: 'شكرًا! رسالتك في الطريق.',
  thanksLimit: 'سبق إرسال ثلاث رسائل شكر على هذه البطاقة.',
  thanksInvalid: 'يُرجى كتابة رسالة من 1 إلى 1000 حرف.',
  print: 'طباعة',
  download: 'تنزيل',
  share: 'مشاركة هذه البطاقة',
  copyLink: 'نسخ الرابط',
  linkCopied: 'تم نسخ الرابط',
  shareByEmail: 'البريد الإلكتروني',
  notFound: 'هذه البطاقة غير موجودة، أو لم تُرسَل بعد.',
  backToCard: 'العودة إلى البطاقة',
  // The email.
  preheader: 'وصلتك بطاقة إلكترونية من {sender}. يمكنك فتحها لمشاهدة البطاقة والرسالة.',
  buttonTrouble: 'إذا لم يعمل الزر، يمكنك فتح هذا الرابط:',
  gift: 'وصلتك بطاقة هدايا من {brand} بقيمة {amount}.',
  claimGift: 'استلام بطاقة الهدايا',
  claimBy: 'يمكن استلامها حتى {date}.',
  unsubscribe: 'إلغاء الاشتراك',
  // Emails to the sender.
  receiptSubject: 'تم فتح بطاقتك من قِبل {recipient}',
  receiptBody: 'تم فتح بطاقتك «{card}» من قِبل {recipient}.',
  thanksSubject: 'رسالة شكر من {recipient}',
  thanksBody: 'ردّ من {recipient} على بطاقتك «{card}»:',
};
