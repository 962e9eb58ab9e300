// Hebrew: "כרטיס ברכה" for the eCard; ”” quotes. Hebrew verbs and imperatives carry the gender of the person
// addressed, which a name does not tell: buttons are verbal nouns or infinitives ("הדפסה", "לפתיחת…"), the
// reader is addressed in forms written alike for both ("קיבלת", "ששלחת", "שלך"), and what a named sender or
// recipient did is told without a gendered verb ("מאת {sender}", "נפתח על ידי {recipient}").
import type { Catalogue } from './en.ts';

export const he: Catalogue = {
  // The card page and the email.
  intro: 'קיבלת כרטיס ברכה מאת {sender}',
  open: 'לפתיחת כרטיס הברכה',
  from: 'מאת {sender}',
  personalMessage: 'הודעה אישית',
  continue: 'המשך',
  // The sealed envelope.
  envelopeTo: 'עבור {recipient}',
  envelopeHint: 'לפתיחה: לחיצה, הקשה או Enter',
  replay: 'צפייה חוזרת',
  playAudio: 'הפעלת המוזיקה',
  pauseAudio: 'השהיית המוזיקה',
  watchVideo: 'צפייה בסרטון',
  // Under the card.
  sayThanks: 'להגיד תודה',
  thanksLabel: 'ההודעה שלך אל {sender}',
  thanksSend: 'שליחת התודה',
  thanksSent: 'תודה! ההודעה שלך בדרך.',
  thanksLimit: 'כבר נשלחו שלוש הודעות תודה על כרטיס הברכה הזה.',
  thanksInvalid: 'יש לכתוב הודעה באורך 1 עד 1,000 תווים.',
  print: 'הדפסה',
  download: 'הורדה',
  share: 'שיתוף כרטיס הברכה',
  copyLink: 'העתקת הקישור',
  linkCopied: 'הקישור הועתק',
  shareByEmail: 'אימייל',
  notFound: 'כרטיס הברכה הזה לא קיים, או שעדיין לא נשלח.',
  backToCard: 'חזרה לכרטיס הברכה',
  // The email.
  preheader: 'קיבלת כרטיס ברכה מאת {sender}. אפשר לפתוח אותו ולקרוא את ההודעה.',
  buttonTrouble: 'אם הכפתור לא עובד, אפשר לפתוח את הקישור הזה:',
  gift: 'קיבלת כרטיס מתנה של {brand} בשווי {amount}.',
  claimGift: 'למימוש כרטיס המתנה',
  claimBy: 'אפשר לממש עד {date}.',
  unsubscribe: 'הסרה מרשימת התפוצה',
  // Emails to the sender.
  receiptSubject: 'כרטיס הברכה שלך נפתח על ידי {recipient}',
  receiptBody: 'כרטיס הברכה ”{card}” ששלחת נפתח על ידי {recipient}.',
  thanksSubject: 'הודעת תודה מאת {recipient}',
  thanksBody: 'תגובה מאת {recipient} לכרטיס הברכה ”{card}” ששלחת:',
};
