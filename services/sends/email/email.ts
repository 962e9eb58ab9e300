// The email of one recipient: HTML (templates/email.mjml, in the brand's palette) and a text part with the same
// content, from the send's rendered card, in the send's language.
import sanitizeHtml from 'sanitize-html';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import { stringsFor } from '../../i18n/locale.ts';
import type { GiftEmail } from '../../rewards/hand-off.ts';
import { paletteOf } from './email-palette.ts';
import { emailTemplate } from './email-template.ts';
import type { BrandDesign, EcardDesign } from '../accept/snapshot.ts';

const toText = (html: string) =>
  sanitizeHtml(html.replace(/<\/(p|div|h\d|li)>|<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/\n{3,}/g, '\n\n')
    .trim();

const SOCIAL_LABELS: Record<keyof BrandDesign['social'], string> = { twitter: 'X (Twitter)', facebook: 'Facebook', instagram: 'Instagram', linkedin: 'LinkedIn', youtube: 'YouTube' };

const hostOf = (url: string) => {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
};

/** What the footer shows of the brand: its name, address lines, footer text, website and social links. */
function footerOf(brand: BrandDesign | undefined) {
  if (!brand) return null;
  const social = (Object.keys(SOCIAL_LABELS) as Array<keyof BrandDesign['social']>).flatMap((network) => {
    const url = brand.social[network];
    return url ? [{ label: SOCIAL_LABELS[network], url }] : [];
  });
  return {
    name: brand.name,
    logoUrl: brand.logo_url,
    website: brand.website,
    addressLines: (brand.address ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean),
    footerText: brand.footer_text,
    links: [...(brand.website ? [{ label: hostOf(brand.website), url: brand.website }] : []), ...social],
  };
}

export interface EmailExtras {
  /** The gift block (made at the hand-off, never stored: its claim link is fresh). */
  gift?: GiftEmail | undefined;
  /** Bulk mail (campaigns, automations) and widget sends: the same link as the List-Unsubscribe header. */
  unsubscribeUrl?: string | undefined;
}

/**
 * Compiles the templates these sends' emails need (cached per palette and direction). Callers await it before they
 * claim recipients: a template that cannot compile then leaves them unclaimed for the retry, not `unknown`.
 */
export async function prepareEmails(sends: ReadonlyArray<{ design: EcardDesign; locale: string | null }>): Promise<void> {
  await Promise.all(sends.map(({ design, locale }) => emailTemplate(paletteOf(design.brand), stringsFor(locale).dir)));
}

/**
 * The email of one recipient, linking to `link` (the recipient's own page). A snapshot from before brands has no
 * brand: the email is unbranded, in a neutral palette.
 */
export async function renderEmail(send: Send, design: EcardDesign, recipient: SendRecipient, link: string, extras: EmailExtras = {}) {
  const { lang, dir, t } = stringsFor(send.locale);
  const { gift, unsubscribeUrl } = extras;
  const giftBlock = gift && {
    text: t('gift', { amount: `${gift.amount} ${gift.currency}`, brand: gift.brand }),
    claimUrl: gift.claimUrl,
    claimLabel: t('claimGift'),
    claimBy: gift.expiresOn ? t('claimBy', { date: gift.expiresOn }) : '',
  };
  const card = { subject: recipient.rendered_subject ?? '', header: recipient.rendered_header ?? '', html: recipient.rendered_html ?? '' };
  const intro = t('intro', { sender: send.sender_name });
  const brand = footerOf(design.brand);
  const template = await emailTemplate(paletteOf(design.brand), dir);
  const html = template({
    lang,
    subject: card.subject || intro,
    preheader: t('preheader', { sender: send.sender_name }),
    intro,
    brand,
    imageUrl: design.self_hosted_url,
    imageAlt: design.thumbnail_alt_label || card.header,
    header: card.header,
    html: card.html,
    personalMessage: send.personal_message,
    personalMessageLabel: t('personalMessage'),
    link,
    openLabel: t('open'),
    buttonTrouble: t('buttonTrouble'),
    gift: giftBlock,
    unsubscribeUrl,
    unsubscribeLabel: t('unsubscribe'),
  });
  const footer = [
    brand ? [brand.name, ...brand.addressLines, brand.footerText ?? '', ...brand.links.map((l) => `${l.label}: ${l.url}`)].filter(Boolean).join('\n') : '',
    unsubscribeUrl ? `${t('unsubscribe')}: ${unsubscribeUrl}` : '',
  ].filter(Boolean);
  const text = [
    intro,
    card.header,
    toText(card.html),
    send.personal_message ? `${t('personalMessage')}:\n${toText(send.personal_message)}` : '',
    `${t('open')}: ${link}`,
    giftBlock ? [giftBlock.text, `${giftBlock.claimLabel}: ${giftBlock.claimUrl}`, giftBlock.claimBy].filter(Boolean).join('\n') : '',
    // The usual signature separator: mail readers set the footer apart.
    footer.length ? `-- \n${footer.join('\n\n')}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: card.subject || intro, html, text };
}
