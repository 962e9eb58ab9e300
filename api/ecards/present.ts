// How an eCard is shown: the spec's field names.
import type { z } from 'zod';
import { ecardModeOf, priceOf, type EcardRow, type ENVELOPE_THEMES } from '../../services/ecards/records.ts';
import { thumbImageOf } from '../../services/widgets/public/thumbs.ts';
import type { Ecard } from './schema.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentEcard(e: EcardRow, publicBaseUrl: string): z.input<typeof Ecard> {
  return {
    id: e.id,
    ecardid: e.id,
    vanity_id: e.vanity_id,
    widgetid: e.widget_id,
    name: e.name,
    emailSubject: e.email_subject,
    header: e.header,
    details: e.details,
    ecardLink: e.ecard_link,
    url_redirect_after_send: e.url_redirect_after_send,
    disabled: Boolean(e.disabled),
    canSchedule: Boolean(e.can_schedule),
    ecardbrandid: e.ecardbrandid,
    ecard_mode: ecardModeOf(e.ecard_mode),
    envelope_bg_image_url: e.envelope_bg_image_url,
    envelope_audio_url: e.envelope_audio_url,
    envelope_video_url: e.envelope_video_url,
    envelope_color_settings: e.envelope_color_settings,
    envelope_auto_open: Boolean(e.envelope_auto_open),
    envelope_confetti: Boolean(e.envelope_confetti),
    envelope_theme: e.envelope_theme as (typeof ENVELOPE_THEMES)[number],
    envelope_audio_repeat: Boolean(e.envelope_audio_repeat),
    ecardLinkAltText: e.ecard_link_alt_text,
    thumbnail_alt_label: e.thumbnail_alt_label,
    og_title: e.og_title,
    og_description: e.og_description,
    self_hosted_url: e.self_hosted_url,
    ...presentFormFields(e),
    thumb_image: thumbImageOf(publicBaseUrl, e),
    displayorder: e.display_order,
    price: priceOf(e),
    createdat: e.created_at.toISOString(),
    updatedat: e.updated_at.toISOString(),
  };
}

/** The widget form's fields (`ecardFormFields`) of an eCard row. */
export function presentFormFields(e: EcardRow) {
  return {
    personalMessageBox: Boolean(e.personal_message_box),
    predefinedScheduleOn: Boolean(e.predefined_schedule_on),
    predefinedScheduleForced: Boolean(e.predefined_schedule_forced),
    predefinedSchedule: iso(e.predefined_schedule),
    publishOn: iso(e.publish_on),
    expireOn: iso(e.expire_on),
  };
}
