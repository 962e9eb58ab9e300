// The card page of one recipient (`/e/<id>`): the sealed envelope and the card inside, from the send's snapshot.
// Everything the page needs comes inline under the request's nonce (its stylesheet, its script and, when the card
// asks for confetti, canvas-confetti's browser build from node_modules): no other host is asked for anything but
// the card's own media.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { cssString } from '../../../lib/css.ts';
import { packageRoot } from '../../../lib/paths.ts';
import { isPlainHttpUrl } from '../../../lib/urls.ts';
import { ecardModeOf } from '../../../models/Ecard.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import { stringsFor } from '../../i18n/locale.ts';
import { pageLook } from './page-look.ts';
import { pageVideo } from './page-video.ts';
import { envelopeOverride, overridesOf } from './render.ts';
import type { EcardDesign } from '../accept/snapshot.ts';

const templates = join(packageRoot, 'templates');
const pageTemplate = Handlebars.create().compile(readFileSync(join(templates, 'ecard-page.hbs'), 'utf8'), { strict: false });
const pageCss = readFileSync(join(templates, 'ecard-page', 'page.css'), 'utf8');
const pageJs = readFileSync(join(packageRoot, 'web', 'card-page', 'page.js'), 'utf8');
// Read once, and only by pages that throw confetti.
let confettiJs: string | undefined;
const confettiScript = () => (confettiJs ??= readFileSync(createRequire(import.meta.url).resolve('canvas-confetti/dist/confetti.browser.js'), 'utf8'));

export interface PageState {
  /** Where the open gesture posts (`/e/<id>/open`); null when the page is nobody's in particular. */
  openAction: string | null;
  /** The recipient opened it before: the card is shown open, with "Replay". */
  opened: boolean;
  /** The page's own absolute URL (share buttons, Open Graph). */
  url: string;
  /** A page anyone may be given (a share link, or the shared id of an old send): share buttons and Open Graph tags. */
  shared: boolean;
  /** `?thanks=sent`: the thank-you just went out. */
  thanksSent: boolean;
  /** The sending widget's public page ("Send one back"); null or absent when the widget is not public. */
  sendBackUrl?: string | null;
  /** A console preview: the envelope sealed or the card open, as asked (with no open action, nothing posts). */
  preview?: 'sealed' | 'open' | undefined;
}

/** What the page shows of its send and of its recipient: every field renderPage reads, and no other. */
export type PageSend = Pick<Send, 'locale' | 'override_props' | 'sender_name' | 'personal_message'>;
export type PageRecipient = Pick<SendRecipient, 'recipient_name' | 'rendered_subject' | 'rendered_header' | 'rendered_html'>;

export interface RenderedPage {
  html: string;
  /** Frame origins the page embeds (a YouTube or Vimeo player), for its CSP's `frame-src`. */
  frameHosts: string[];
}

const httpOrNull = (value: string | null | undefined) => (typeof value === 'string' && isPlainHttpUrl(value) ? value : null);

function shareLinks(url: string, title: string, t: ReturnType<typeof stringsFor>['t']) {
  const u = encodeURIComponent(url);
  const text = encodeURIComponent(title);
  return [
    { name: t('shareByEmail'), href: `mailto:?subject=${text}&body=${u}`, kind: 'email' },
    { name: 'WhatsApp', href: `https://wa.me/?text=${text}%20${u}`, kind: 'whatsapp' },
    { name: 'X', href: `https://x.com/intent/post?url=${u}&text=${text}`, kind: 'x' },
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}`, kind: 'facebook' },
    { name: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`, kind: 'linkedin' },
  ];
}

/** The page; the envelope and media are the snapshot's, with the send's envelope overrides. No snapshot: a plain card. */
export function renderPage(send: PageSend, design: EcardDesign | null, recipient: PageRecipient, nonce: string, state: PageState): RenderedPage {
  const { lang, dir, t } = stringsFor(send.locale);
  const o = overridesOf(send);
  const autoOpen = envelopeOverride(o.envelope_auto_open, 'boolean', design?.envelope_auto_open ?? false);
  const classic = ecardModeOf(design?.ecard_mode) === 'classic';
  // `classic` shows the card at once, with no envelope; auto-open shows it open (the envelope replays on request).
  // Either way the open is sent once the card has been seen.
  const openAtOnce = classic || autoOpen;
  const sealed = state.preview ? state.preview === 'sealed' && !classic : state.openAction !== null && !state.opened && !openAtOnce && !state.thanksSent;
  const backgroundImage = envelopeOverride(o.envelope_bg_image_url, 'url', design?.envelope_bg_image_url ?? null);
  const theme = envelopeOverride(o.envelope_theme, 'string', design?.envelope_theme ?? null);
  const look = pageLook(theme, envelopeOverride(o.envelope_color_settings, 'string', design?.envelope_color_settings ?? null), design?.brand ?? null);
  const video = pageVideo(envelopeOverride(o.envelope_video_url, 'url', design?.envelope_video_url ?? null));
  const audioUrl = envelopeOverride(o.envelope_audio_url, 'url', design?.envelope_audio_url ?? null);
  const confetti = envelopeOverride(o.envelope_confetti, 'boolean', design?.envelope_confetti ?? false);
  const imageUrl = httpOrNull(design?.self_hosted_url);
  const header = recipient.rendered_header ?? '';
  const title = recipient.rendered_subject || header || design?.name || t('open');
  const link = httpOrNull(design?.ecardLink);
  const brand = design?.brand ?? null;
  const html = pageTemplate({
    lang,
    dir,
    nonce,
    title,
    theme: look.theme,
    vars: look.vars,
    background: look.background,
    backgroundImageCss: backgroundImage === null ? null : cssString(backgroundImage),
    css: pageCss,
    js: pageJs,
    confettiJs: confetti ? confettiScript() : null,
    state: sealed ? 'is-sealed' : 'is-open',
    sealed,
    envelope: !classic,
    openAction: state.openAction,
    openWhenSeen: state.openAction !== null && !state.opened && openAtOnce,
    confetti,
    recipientLine: recipient.recipient_name ? t('envelopeTo', { recipient: recipient.recipient_name }) : '',
    sealInitial: [...send.sender_name.trim()][0]?.toUpperCase() ?? '',
    intro: t('intro', { sender: send.sender_name }),
    logoUrl: httpOrNull(brand?.logo_url),
    brandName: brand?.name ?? '',
    imageUrl,
    imageAlt: design?.thumbnail_alt_label || header,
    header,
    html: recipient.rendered_html,
    personalMessage: send.personal_message,
    from: t('from', { sender: send.sender_name }),
    link: link ? { href: link, label: design?.ecardLinkAltText || t('cardLink') } : null,
    audio: audioUrl ? { url: audioUrl, repeat: envelopeOverride(o.envelope_audio_repeat, 'boolean', design?.envelope_audio_repeat ?? false) } : null,
    video: video ? { ...video, [video.kind]: true } : null,
    redirectUrl: httpOrNull(design?.url_redirect_after_send),
    thanks: state.openAction ? { action: state.openAction.replace(/\/open$/, '/thanks'), sent: state.thanksSent, label: t('thanksLabel', { sender: send.sender_name }) } : null,
    sendBack: httpOrNull(state.sendBackUrl),
    share: state.shared ? { url: state.url, links: shareLinks(state.url, title, t) } : null,
    og: state.shared ? { title: design?.og_title || header || title, description: design?.og_description || null, image: imageUrl, url: state.url } : null,
    s: {
      open: t('open'),
      hint: t('envelopeHint'),
      personalMessage: t('personalMessage'),
      continue: t('continue'),
      replay: t('replay'),
      playAudio: t('playAudio'),
      pauseAudio: t('pauseAudio'),
      watchVideo: t('watchVideo'),
      sayThanks: t('sayThanks'),
      thanksSend: t('thanksSend'),
      thanksSent: t('thanksSent'),
      print: t('print'),
      sendOneBack: t('sendOneBack'),
      download: t('download'),
      share: t('share'),
      copyLink: t('copyLink'),
      linkCopied: t('linkCopied'),
    },
  });
  return { html, frameHosts: video?.kind === 'embed' ? [video.frameHost] : [] };
}
