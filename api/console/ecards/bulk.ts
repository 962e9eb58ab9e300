// The eCards list's bulk form: the fields the key API's `POST /ecard/bulkUpdate` takes, each with the control its
// kind needs (yes/no, a choice, a brand, text), and the form read as that endpoint's `fieldName`/`fieldValue`,
// checked by the same per-field schemas.
import type { Context } from 'koa';
import { ECARD_MODES, ENVELOPE_THEMES } from '../../../services/ecards/records.ts';
import { inputError, parseInput } from '../../http/validation.ts';
import { readBodyBytes, readFormBody } from '../../http/body.ts';
import { BULK_FIELDS, ecardFieldSchemas } from '../../ecards/schema.ts';
import { z } from 'zod';
import { resource } from '../../schema-helpers.ts';
import { missingField } from '../../../lib/errors.ts';

export type BulkField = (typeof BULK_FIELDS)[number];
/** Which control a field's value comes from: the form has one per kind (`value_<kind>`); the script shows the one that fits. */
export type BulkKind = 'flag' | 'mode' | 'theme' | 'brand' | 'text';

/** Every field bulkUpdate takes (typed by BULK_FIELDS, so a new one fails to compile until it is labelled here). */
export const BULK_FIELD_KINDS: Record<BulkField, { label: string; kind: BulkKind }> = {
  disabled: { label: 'Hidden from the gallery', kind: 'flag' },
  name: { label: 'Name', kind: 'text' },
  emailSubject: { label: 'Email subject', kind: 'text' },
  header: { label: 'Header', kind: 'text' },
  details: { label: 'Body (HTML)', kind: 'text' },
  ecardLink: { label: 'Call-to-action link', kind: 'text' },
  ecardLinkAltText: { label: 'Call-to-action label', kind: 'text' },
  url_redirect_after_send: { label: 'Page after sending (URL)', kind: 'text' },
  canSchedule: { label: 'Can be scheduled', kind: 'flag' },
  ecardbrandid: { label: 'Brand', kind: 'brand' },
  ecard_mode: { label: 'Mode', kind: 'mode' },
  envelope_theme: { label: 'Envelope theme', kind: 'theme' },
  envelope_bg_image_url: { label: 'Envelope background image (URL)', kind: 'text' },
  envelope_color_settings: { label: 'Envelope colours (JSON)', kind: 'text' },
  envelope_auto_open: { label: 'Envelope opens by itself', kind: 'flag' },
  envelope_confetti: { label: 'Confetti on open', kind: 'flag' },
  envelope_audio_url: { label: 'Envelope audio (URL)', kind: 'text' },
  envelope_audio_repeat: { label: 'Audio repeats', kind: 'flag' },
  envelope_video_url: { label: 'Envelope video (URL)', kind: 'text' },
  thumbnail_alt_label: { label: 'Cover image alt text', kind: 'text' },
  og_title: { label: 'Share title (Open Graph)', kind: 'text' },
  og_description: { label: 'Share description (Open Graph)', kind: 'text' },
};

export const BULK_CHOICES = { mode: ECARD_MODES, theme: ENVELOPE_THEMES } as const;

/** The bulk form's body: its fields, the ticked `ecardids` (one checkbox each) joined by commas. */
export async function readBulkBody(ctx: Context, limit: number): Promise<Record<string, string>> {
  // No body, or another type: the standard reader answers {} or refuses (415).
  if (!ctx.request.is('application/x-www-form-urlencoded')) return readFormBody(ctx, limit);
  const params = new URLSearchParams((await readBodyBytes(ctx, limit)).toString('utf8'));
  return { ...Object.fromEntries(params), ecardids: params.getAll('ecardids').join(',') };
}

const BulkForm = z.object({
  ecardids: resource('ecard', z.array(z.preprocess((v) => (typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : v), z.number().int().positive())).min(1)),
  fieldName: z.enum(BULK_FIELDS),
});

/** The posted form as bulkUpdate's target and value: 400/422 naming what is wrong, as the key API's would. */
export function bulkUpdateOf(form: Record<string, string>): { ecardids: number[]; field: BulkField; value: unknown } {
  const ids = (form.ecardids ?? '').split(',').filter(Boolean);
  if (!ids.length) throw missingField('Select at least one eCard (tick its box), then choose the field and its value');
  const { ecardids, fieldName } = parseInput(BulkForm, { ecardids: ids, fieldName: form.fieldName || undefined }, 'body');
  const { kind } = BULK_FIELD_KINDS[fieldName];
  const given = form[`value_${kind}`] ?? '';
  let value: unknown;
  if (kind === 'flag') value = given === 'yes' ? true : given === 'no' ? false : undefined;
  else if (kind === 'brand') value = given === '' ? null : /^\d{1,15}$/.test(given) ? Number(given) : given;
  // An empty text clears a field that may be empty; a name may not be, and the schema says so.
  else value = given.trim() === '' && fieldName !== 'name' ? null : given;
  const parsed = ecardFieldSchemas[fieldName].safeParse(value, { reportInput: true });
  if (!parsed.success) throw inputError(parsed.error.issues.map((i) => ({ ...i, path: [BULK_FIELD_KINDS[fieldName].label, ...i.path] })), 'body');
  if (parsed.data === undefined) throw missingField(`${BULK_FIELD_KINDS[fieldName].label}: a value is required`);
  return { ecardids, field: fieldName, value: parsed.data };
}
