// The card page of one recipient (`/e/<id>`): the envelope and the card, from the send's snapshot.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { cssString } from '../../lib/css.ts';
import { packageRoot } from '../../lib/paths.ts';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import { stringsFor } from '../i18n/locale.ts';
import { envelopeOverride, overridesOf } from './render.ts';
import type { EcardDesign } from './snapshot.ts';

const pageTemplate = Handlebars.create().compile(readFileSync(join(packageRoot, 'templates', 'ecard-page.hbs'), 'utf8'), { strict: false });

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

export interface PageState {
  /** Where the open gesture posts (`/e/<id>/open`); null when the page is nobody's in particular. */
  openAction: string | null;
  /** The recipient opened it before: the card is shown open. */
  opened: boolean;
}

/** The share page; the envelope is the snapshot's, with the send's envelope overrides. No snapshot: no envelope. */
export function renderPage(send: Send, design: EcardDesign | null, recipient: SendRecipient, nonce: string, state: PageState): string {
  const { lang, dir, t } = stringsFor(send.locale);
  const o = overridesOf(send);
  const autoOpen = envelopeOverride(o.envelope_auto_open, 'boolean', design?.envelope_auto_open ?? false);
  // `classic` shows the card at once; so does auto-open. Either way the open is sent once the card has been seen.
  const openAtOnce = design?.ecard_mode === 'classic' || autoOpen;
  const backgroundImage = envelopeOverride(o.envelope_bg_image_url, 'url', design?.envelope_bg_image_url ?? null);
  return pageTemplate({
    lang,
    dir,
    nonce,
    openAction: state.openAction,
    sealed: state.openAction !== null && !state.opened && !openAtOnce,
    openWhenSeen: state.openAction !== null && !state.opened && openAtOnce,
    title: recipient.rendered_subject || recipient.rendered_header || design?.name || t('open'),
    intro: t('intro', { sender: send.sender_name }),
    imageUrl: design?.self_hosted_url,
    header: recipient.rendered_header,
    html: recipient.rendered_html,
    personalMessage: send.personal_message,
    personalMessageLabel: t('personalMessage'),
    openLabel: t('open'),
    backgroundImageCss: backgroundImage === null ? null : cssString(backgroundImage),
    audioUrl: envelopeOverride(o.envelope_audio_url, 'url', design?.envelope_audio_url ?? null),
    videoUrl: envelopeOverride(o.envelope_video_url, 'url', design?.envelope_video_url ?? null),
    confetti: envelopeOverride(o.envelope_confetti, 'boolean', design?.envelope_confetti ?? false),
    colors: colors(envelopeOverride(o.envelope_color_settings, 'string', design?.envelope_color_settings ?? null)),
    redirectUrl: design?.url_redirect_after_send ?? null,
    continueLabel: t('continue'),
  });
}
