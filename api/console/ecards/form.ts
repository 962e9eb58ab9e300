// The eCard editor's form as the key API's eCard input: one reader for the editor's save and the previews of an
// unsaved design, so a field means the same in both. Form fields carry the spec's names (`name`, `emailSubject`,
// `header`, `details`, `ecardLink`, `envelope_theme`, ...); checkboxes are on or absent (the editor always sends
// the whole form, so absent is false); blank texts and URLs are null; dates come from `datetime-local` inputs in
// UTC; the envelope's colours come as `color_<key>` fields (blank: the theme's) and are stored as one JSON text.
import type { Context } from 'koa';
import { malformedForm } from '../../../lib/errors.ts';
import { ENVELOPE_COLOR_KEYS } from '../../../services/ecards/envelope-colors.ts';
import { ECARD_FIELDS, type EcardField } from '../../../services/ecards/records.ts';
import { readBodyBytes, readFormBody } from '../../http/body.ts';
import { parseInput } from '../../http/validation.ts';
import { EcardInput } from '../../ecards/schema.ts';

const CHECKBOXES: readonly EcardField[] = [
  'disabled',
  'canSchedule',
  'envelope_auto_open',
  'envelope_confetti',
  'envelope_audio_repeat',
  'personalMessageBox',
  'predefinedScheduleOn',
  'predefinedScheduleForced',
];
const DATES: readonly EcardField[] = ['predefinedSchedule', 'publishOn', 'expireOn'];

/** `2026-12-01T09:30` (a datetime-local value, read as UTC) → ISO 8601 with Z; blank → null; anything else as given (refused by the schema). */
const utcInstant = (value: string) => (value.trim() === '' ? null : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value.length === 16 ? `${value}:00` : value}Z` : value);

/** The form's fields as EcardInput's input (`id` and `widgetid` included when the form has them). */
export function ecardInputOfForm(form: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const field of Object.keys(ECARD_FIELDS) as EcardField[]) {
    if (CHECKBOXES.includes(field)) input[field] = form[field] === 'on' || form[field] === 'true';
    else if (field === 'envelope_color_settings') continue;
    else if (field === 'ecardbrandid') input[field] = form[field] ? Number(form[field]) : null;
    else if (form[field] === undefined) continue;
    else if (DATES.includes(field)) input[field] = utcInstant(form[field]);
    else if (field === 'name' || field === 'envelope_theme') input[field] = form[field];
    else if (field === 'ecard_mode') input[field] = form[field] || null;
    else input[field] = form[field].trim() === '' ? null : form[field];
  }
  const colors = Object.fromEntries(ENVELOPE_COLOR_KEYS.flatMap((key) => (form[`color_${key}`] ? [[key, form[`color_${key}`]]] : [])));
  input.envelope_color_settings = Object.keys(colors).length ? colors : null;
  if (form.id) input.id = Number(form.id);
  if (form.widgetid) input.widgetid = Number(form.widgetid);
  return input;
}

/** The form checked as the key API checks `myEcard` (a bad field: the same 400 and message). */
export const parseEcardForm = (form: Record<string, string>) => parseInput(EcardInput, ecardInputOfForm(form), 'body');

/** The editor's form with a cover: a 5 MB image as base64 plus the form's text, within the multipart envelope. */
export const ECARD_FORM_LIMIT = 8 * 1024 * 1024;

/**
 * The editor's form as posted: urlencoded (the previews' buttons, a form without a file), or multipart (the editor
 * with its cover file `ecardimg`). Text fields as strings; a chosen cover as `ecardimg`, a data: URI of its bytes
 * (saveEcard's `image`); an empty file input (nothing chosen) is left out.
 */
export async function readEcardForm(ctx: Context, limit: number): Promise<Record<string, string>> {
  if (!ctx.request.is('multipart/form-data')) return readFormBody(ctx, limit);
  const body = await readBodyBytes(ctx, limit);
  let data: FormData;
  try {
    data = await new Request('http://form.invalid/', { method: 'POST', headers: { 'content-type': ctx.get('content-type') }, body }).formData();
  } catch {
    throw malformedForm('The form is not a valid multipart form');
  }
  const form: Record<string, string> = {};
  for (const [name, value] of data) {
    if (typeof value === 'string') form[name] = value;
    else if (value.size > 0) form[name] = `data:${value.type || 'application/octet-stream'};base64,${Buffer.from(await value.arrayBuffer()).toString('base64')}`;
  }
  return form;
}
