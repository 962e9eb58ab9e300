// What the eCard editor's view shows: every field's value as the form holds it (from a stored eCard, a new one's
// defaults, or the values typed into a refused form), the choices of its selects and the merge tags it offers.
import type { Ecard } from '../../../models/Ecard.ts';
import { ECARD_MODES, ENVELOPE_THEMES } from '../../../services/ecards/records.ts';
import { ENVELOPE_COLOR_KEYS } from '../../../services/ecards/envelope-colors.ts';
import { presentEcard } from '../../ecards/present.ts';

/** The form's values by field name: texts as typed, checkboxes as booleans. */
export type EditorValues = Record<string, string | boolean>;

const CHECKBOXES = ['disabled', 'canSchedule', 'envelope_auto_open', 'envelope_confetti', 'envelope_audio_repeat', 'personalMessageBox', 'predefinedScheduleOn', 'predefinedScheduleForced'];
const TEXTS = [
  'name', 'emailSubject', 'header', 'details', 'ecardLink', 'ecardLinkAltText', 'url_redirect_after_send', 'ecardbrandid', 'ecard_mode', 'envelope_theme',
  'envelope_bg_image_url', 'envelope_audio_url', 'envelope_video_url', 'thumbnail_alt_label', 'og_title', 'og_description', 'self_hosted_url',
  'predefinedSchedule', 'publishOn', 'expireOn',
];
const COLOR_LABELS: Record<(typeof ENVELOPE_COLOR_KEYS)[number], string> = {
  envelope: 'Envelope',
  liner: 'Envelope liner',
  card: 'Card',
  text: 'Text',
  background: 'Page background',
  accent: 'Accent',
};
/** The form's fields in words, as their labels say (a refused save's messages name them so). */
export const ECARD_LABELS = {
  name: 'Name',
  emailSubject: 'Email subject',
  header: 'Header',
  details: 'Body',
  ecardLink: 'Call-to-action link',
  ecardLinkAltText: 'Call-to-action label',
  url_redirect_after_send: 'Redirect after send',
  ecardimg: 'Cover image',
  self_hosted_url: 'Image URL',
  thumbnail_alt_label: 'Alt text',
  ecard_mode: 'Mode',
  envelope_theme: 'Envelope theme',
  envelope_bg_image_url: 'Background image URL',
  envelope_audio_url: 'Audio URL',
  envelope_video_url: 'Video URL',
  envelope_color_settings: 'Colours',
  ecardbrandid: 'Brand',
  predefinedSchedule: 'Predefined send time',
  publishOn: 'Publish on',
  expireOn: 'Expire on',
  og_title: 'Share title',
  og_description: 'Share description',
} as const;

/** The merge tags every send fills; a widget's own defaults add theirs. */
const STANDARD_TAGS = ['recipient_name', 'recipient_email', 'sender_name', 'sender_email', 'personal_message', 'ecard_link'];

/** An ISO instant as a datetime-local value in UTC (`2026-12-01T09:30`). */
const localUtc = (iso: string | null) => (iso ? iso.slice(0, 16) : '');

/** A new eCard's values: the schema's defaults (a personal message box, the popup card, the classic envelope). */
export const newEcardValues = (): EditorValues => ({ personalMessageBox: true, ecard_mode: 'popup_card', envelope_theme: 'classic' });

/** A stored eCard's values. */
export function ecardValues(ecard: Ecard, publicBaseUrl: string): EditorValues {
  const shown = presentEcard(ecard, publicBaseUrl);
  const values: EditorValues = {};
  for (const field of CHECKBOXES) values[field] = Boolean(shown[field as keyof typeof shown]);
  for (const field of TEXTS) {
    const value = shown[field as keyof typeof shown];
    values[field] = value === null || value === undefined ? '' : String(value);
  }
  for (const field of ['predefinedSchedule', 'publishOn', 'expireOn'] as const) values[field] = localUtc(shown[field] ?? null);
  let colors: Record<string, unknown> = {};
  try {
    colors = shown.envelope_color_settings ? (JSON.parse(shown.envelope_color_settings) as Record<string, unknown>) : {};
  } catch {
    // A stored text that is not JSON shows as no colours (the key API refuses such a text; old rows may hold one).
  }
  for (const key of ENVELOPE_COLOR_KEYS) values[`color_${key}`] = typeof colors[key] === 'string' ? colors[key] : '';
  return values;
}

/** The values of a posted form, as typed (a refused save shows them again). */
export function formValues(form: Record<string, string>): EditorValues {
  const values: EditorValues = {};
  for (const field of CHECKBOXES) values[field] = form[field] === 'on' || form[field] === 'true';
  for (const field of TEXTS) values[field] = form[field] ?? '';
  for (const key of ENVELOPE_COLOR_KEYS) values[`color_${key}`] = form[`color_${key}`] ?? '';
  return values;
}

/** `#rgb` → `#rrggbb`; a colour the picker cannot show (a name, rgb()) → black, the picker's own default. */
function pickerValue(color: string): string {
  if (/^#[0-9a-f]{6}$/i.test(color)) return color.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
}

/** The selects' options and the colour rows, each marked as the values choose. */
export function editorChoices(values: EditorValues, brands: Array<{ id: number; name: string }>, mergeTagDefaults: Record<string, string> | null) {
  return {
    modes: ECARD_MODES.map((mode) => ({ value: mode, label: mode === 'popup_card' ? 'Popup card (the envelope first)' : 'Classic (the card at once)', selected: values.ecard_mode === mode })),
    themes: ENVELOPE_THEMES.map((theme) => ({ value: theme, label: theme[0]!.toUpperCase() + theme.slice(1), selected: values.envelope_theme === theme })),
    brands: brands.map((brand) => ({ value: String(brand.id), label: brand.name, selected: values.ecardbrandid === String(brand.id) })),
    colors: ENVELOPE_COLOR_KEYS.map((key) => {
      const value = String(values[`color_${key}`] ?? '');
      return { key, label: COLOR_LABELS[key], value, picker: pickerValue(value) };
    }),
    mergeTags: [...new Set([...STANDARD_TAGS, ...Object.keys(mergeTagDefaults ?? {})])].map((name) => ({ name, tag: `{{${name}}}` })),
    exampleTag: '{{recipient_name}}',
  };
}
