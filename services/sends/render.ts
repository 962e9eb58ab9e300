// The eCard as a recipient gets it, from the send's snapshot of the design (never the eCard row): the card
// rendered with its merge tags, put into the email (HTML and text) and the share page, both from Handlebars
// templates under templates/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import sanitizeHtml from 'sanitize-html';
import { cssString } from '../../lib/css.ts';
import { isPlainHttpUrl } from '../../lib/urls.ts';
import { packageRoot } from '../../lib/paths.ts';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import { OVERRIDABLE, renderEcard } from '../ecards.ts';
import type { TemplateValues } from '../templates.ts';
import { stringsFor } from './locales.ts';
import type { EcardDesign } from './snapshot.ts';
import type { GiftEmail } from '../rewards/hand-off.ts';

const handlebars = Handlebars.create();
const template = (name: string) => handlebars.compile(readFileSync(join(packageRoot, 'templates', `${name}.hbs`), 'utf8'), { strict: false });
const emailTemplate = template('email');
const pageTemplate = template('ecard-page');

/** The card for one recipient: subject, header and body HTML with the merge tags filled (kept with the send). */
// The send's overrideProps limited to what may be overridden (texts and envelope).
function overridesOf(send: Send): Partial<Record<(typeof OVERRIDABLE)[number], unknown>> {
  const overrides = send.override_props ? (JSON.parse(send.override_props) as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(overrides).filter(([k]) => (OVERRIDABLE as readonly string[]).includes(k)));
}

export function renderCard(send: Send, design: EcardDesign, recipient: SendRecipient, link: string) {
  const mergeTags = send.merge_tags ? (JSON.parse(send.merge_tags) as TemplateValues) : {};
  return renderEcard(design, {
    mergeTags: {
      ...mergeTags,
      recipient_name: recipient.recipient_name,
      recipient_email: recipient.recipient_email ?? '',
      sender_name: send.sender_name,
      sender_email: send.sender_email,
      personal_message: sanitizeHtml(send.personal_message ?? '', { allowedTags: [], allowedAttributes: {} }),
      ecard_link: link,
    },
    overrideProps: overridesOf(send),
    trialMode: false,
  });
}

const toText = (html: string) =>
  sanitizeHtml(html.replace(/<\/(p|div|h\d|li)>|<br\s*\/?>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * The email of one recipient; `gift` (made at the hand-off, never stored) adds the gift block with its claim link.
 */
export function renderEmail(send: Send, design: EcardDesign, recipient: SendRecipient, link: string, gift?: GiftEmail) {
  const { lang, strings } = stringsFor(send.locale);
  const giftBlock = gift && {
    text: strings.gift(`${gift.amount} ${gift.currency}`, gift.brand),
    claimUrl: gift.claimUrl,
    claimLabel: strings.claimGift,
    claimBy: gift.expiresOn ? strings.claimBy(gift.expiresOn) : '',
  };
  const card = { subject: recipient.rendered_subject ?? '', header: recipient.rendered_header ?? '', html: recipient.rendered_html ?? '' };
  const intro = strings.intro(send.sender_name);
  const html = emailTemplate({
    lang,
    subject: card.subject,
    intro,
    imageUrl: design.self_hosted_url,
    header: card.header,
    html: card.html,
    personalMessage: send.personal_message,
    personalMessageLabel: strings.personalMessage,
    link,
    openLabel: strings.open,
    gift: giftBlock,
  });
  const text = [
    intro,
    card.header,
    toText(card.html),
    send.personal_message ? `${strings.personalMessage}:\n${toText(send.personal_message)}` : '',
    giftBlock ? [giftBlock.text, `${giftBlock.claimLabel}: ${giftBlock.claimUrl}`, giftBlock.claimBy].filter(Boolean).join('\n') : '',
    `${strings.open}: ${link}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { subject: card.subject || intro, html, text };
}

interface EnvelopeColors {
  background: string;
  card: string;
  text: string;
  accent: string;
}

// Colours come from the eCard's JSON settings; only plain colour values pass (they land inside a style block).
function colors(settings: string | null): EnvelopeColors {
  const fallback: EnvelopeColors = { background: '#f4f4f7', card: '#ffffff', text: '#222222', accent: '#5a3fd0' };
  let parsed: Record<string, unknown> = {};
  try {
    parsed = settings ? (JSON.parse(settings) as Record<string, unknown>) : {};
  } catch {
    return fallback;
  }
  const pick = (key: keyof EnvelopeColors) => {
    const value = parsed[key];
    return typeof value === 'string' && /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([\d\s.,%]+\))$/.test(value) ? value : fallback[key];
  };
  return { background: pick('background'), card: pick('card'), text: pick('text'), accent: pick('accent') };
}

// A stored URL from before URLs were checked for whitespace and control characters is left out.
const plainUrlOrNull = <T>(url: T): T => (typeof url === 'string' && !isPlainHttpUrl(url) ? (null as T) : url);

// An override is used only when it has the field's kind: URLs must be http(s) (they land in the page's markup).
const envelopeOverride = <T>(value: unknown, type: 'url' | 'string' | 'boolean', fallback: T): T => {
  if (type === 'url') return typeof value === 'string' && isPlainHttpUrl(value) ? (value as T) : plainUrlOrNull(fallback);
  return typeof value === type ? (value as T) : fallback;
};

export interface PageState {
  /** Where the open gesture posts (`/e/<id>/open`); null when the page is nobody's in particular. */
  openAction: string | null;
  /** The recipient opened it before: the card is shown open. */
  opened: boolean;
}

/** The share page; the envelope is the snapshot's, with the send's envelope overrides. No snapshot: no envelope. */
export function renderPage(send: Send, design: EcardDesign | null, recipient: SendRecipient, nonce: string, state: PageState): string {
  const { lang, strings } = stringsFor(send.locale);
  const o = overridesOf(send);
  const autoOpen = envelopeOverride(o.envelope_auto_open, 'boolean', design?.envelope_auto_open ?? false);
  // `classic` shows the card at once; so does auto-open. Either way the open is sent once the card has been seen.
  const openAtOnce = design?.ecard_mode === 'classic' || autoOpen;
  const backgroundImage = envelopeOverride(o.envelope_bg_image_url, 'url', design?.envelope_bg_image_url ?? null);
  return pageTemplate({
    lang,
    nonce,
    openAction: state.openAction,
    sealed: state.openAction !== null && !state.opened && !openAtOnce,
    openWhenSeen: state.openAction !== null && !state.opened && openAtOnce,
    title: recipient.rendered_subject || recipient.rendered_header || design?.name || strings.open,
    intro: strings.intro(send.sender_name),
    imageUrl: design?.self_hosted_url,
    header: recipient.rendered_header,
    html: recipient.rendered_html,
    personalMessage: send.personal_message,
    personalMessageLabel: strings.personalMessage,
    openLabel: strings.open,
    backgroundImageCss: backgroundImage === null ? null : cssString(backgroundImage),
    audioUrl: envelopeOverride(o.envelope_audio_url, 'url', design?.envelope_audio_url ?? null),
    videoUrl: envelopeOverride(o.envelope_video_url, 'url', design?.envelope_video_url ?? null),
    confetti: envelopeOverride(o.envelope_confetti, 'boolean', design?.envelope_confetti ?? false),
    colors: colors(envelopeOverride(o.envelope_color_settings, 'string', design?.envelope_color_settings ?? null)),
    redirectUrl: design?.url_redirect_after_send ?? null,
    continueLabel: strings.continue,
  });
}
