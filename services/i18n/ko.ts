// Korean: polite 해요체, "e카드" for the eCard, names with 님, the card signed "{sender} 드림" as a letter is; “” quotes.
// A quoted card title stands in parentheses after "e카드", so the particle that follows fits the word before it
// whatever the title ends with.
import type { Catalogue } from './en.ts';

export const ko: Catalogue = {
  // The card page and the email.
  intro: '{sender}님이 e카드를 보냈어요',
  open: 'e카드 열기',
  from: '{sender} 드림',
  personalMessage: '개인 메시지',
  continue: '계속',
  // The sealed envelope.
  envelopeTo: '{recipient}님께',
  envelopeHint: '클릭, 탭 또는 Enter 키로 열어 보세요',
  replay: '다시 보기',
  playAudio: '음악 재생',
  pauseAudio: '음악 일시정지',
  watchVideo: '동영상 보기',
  // Under the card.
  sayThanks: '감사 인사 전하기',
  thanksLabel: '{sender}님께 보낼 메시지',
  thanksSend: '감사 인사 보내기',
  thanksSent: '감사합니다! 메시지가 곧 전달돼요.',
  thanksLimit: '이 e카드에는 이미 감사 인사를 세 번 보냈어요.',
  thanksInvalid: '메시지를 1~1,000자로 입력해 주세요.',
  print: '인쇄',
  download: '다운로드',
  share: '이 e카드 공유하기',
  copyLink: '링크 복사',
  linkCopied: '링크를 복사했어요',
  shareByEmail: '이메일',
  notFound: '없는 e카드이거나 아직 보내지 않은 e카드예요.',
  backToCard: 'e카드로 돌아가기',
  // The email.
  preheader: '{sender}님이 e카드를 보냈어요. 열어서 e카드와 메시지를 확인해 보세요.',
  buttonTrouble: '버튼이 작동하지 않으면 이 링크를 열어 주세요:',
  gift: '{brand} {amount} 기프트 카드를 받았어요.',
  claimGift: '기프트 카드 받기',
  claimBy: '{date}까지 받을 수 있어요.',
  unsubscribe: '수신 거부',
  // Emails to the sender.
  receiptSubject: '{recipient}님이 e카드를 열어 봤어요',
  receiptBody: '보내신 e카드(“{card}”)를 {recipient}님이 열어 봤어요.',
  thanksSubject: '{recipient}님이 감사 인사를 보냈어요',
  thanksBody: '보내신 e카드(“{card}”)에 {recipient}님이 답장을 보냈어요:',
};
