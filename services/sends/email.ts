// The email of one recipient: HTML and text from the send's rendered card, in the send's language.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import sanitizeHtml from 'sanitize-html';
import { packageRoot } from '../../lib/paths.ts';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import { stringsFor } from '../i18n/locale.ts';
import type { GiftEmail } from '../rewards/hand-off.ts';
import type { EcardDesign } from './snapshot.ts';

const emailTemplate = Handlebars.create().compile(readFileSync(join(packageRoot, 'templates', 'email.hbs'), 'utf8'), { strict: false });

const toText = (html: string) =>
  sanitizeHtml(html.replace(/<\/(p|div|h\d|li)>|<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * The email of one recipient; `gift` (made at the hand-off, never stored) adds the gift block with its claim link.
 */
export function renderEmail(send: Send, design: EcardDesign, recipient: SendRecipient, link: string, gift?: GiftEmail) {
  const { lang, dir, t } = stringsFor(send.locale);
  const giftBlock = gift && {
    text: t('gift', { amount: `${gift.amount} ${gift.currency}`, brand: gift.brand }),
    claimUrl: gift.claimUrl,
    claimLabel: t('claimGift'),
    claimBy: gift.expiresOn ? t('claimBy', { date: gift.expiresOn }) : '',
  };
  const card = { subject: recipient.rendered_subject ?? '', header: recipient.rendered_header ?? '', html: recipient.rendered_html ?? '' };
  const intro = t('intro', { sender: send.sender_name });
  const html = emailTemplate({
    lang,
    dir,
    subject: card.subject,
    intro,
    imageUrl: design.self_hosted_url,
    header: card.header,
    html: card.html,
    personalMessage: send.personal_message,
    personalMessageLabel: t('personalMessage'),
    link,
    openLabel: t('open'),
    gift: giftBlock,
  });
  const text = [
    intro,
    card.header,
    toText(card.html),
    send.personal_message ? `${t('personalMessage')}:\n${toText(send.personal_message)}` : '',
    giftBlock ? [giftBlock.text, `${giftBlock.claimLabel}: ${giftBlock.claimUrl}`, giftBlock.claimBy].filter(Boolean).join('\n') : '',
    `${t('open')}: ${link}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: card.subject || intro, html, text };
}

