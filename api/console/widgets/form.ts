// The widget tabs' forms read as the key API's widget input (api/widgets/schema.ts's `WidgetInput`): Customize's
// display keys and style columns, Share's switch and origins, Settings' name and sender rules. wconfig is replaced
// whole on save, so each form's keys are merged into the widget's current wconfig (a blank field drops its key: the
// default). Values keep the shape the owner typed when they are not numbers, so the schema names what is wrong.
import { ApiError } from '../../../lib/errors.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { WidgetInput as ServiceWidgetInput } from '../../../services/widgets/admin/widgets.ts';
import { DISPLAY_DEFAULTS } from '../../../services/widgets/public/display.ts';
import { parseInput } from '../../http/validation.ts';
import { WidgetInput } from '../../widgets/schema.ts';
import { type FieldErrors, fieldErrorsOf } from '../kit/field-errors.ts';

export type Form = Record<string, string>;

const blank = (value: string | undefined) => value === undefined || value.trim() === '';
/** A whole number as a number; anything else as typed (the schema refuses it by name); blank → undefined. */
const numberOf = (value: string | undefined): number | string | undefined => (blank(value) ? undefined : /^-?\d+$/.test(value!.trim()) ? Number(value!.trim()) : value!.trim());
const checked = (value: string | undefined) => value === 'on' || value === 'yes' || value === 'true';

/** Customize's display keys: [key, kind] (select values and texts as strings, numbers, checkboxes). */
export const CUSTOMIZE_KEYS = [
  ['layout', 'text'], ['thumbColumns', 'number'], ['thumbHeight', 'number'], ['ecardsPerPage', 'number'], ['theme', 'text'],
  ['widgetThemeColor', 'text'], ['locale', 'text'], ['shareButtonText', 'text'], ['maxRecipients', 'number'], ['scheduleMaxDays', 'number'],
  ['readReceiptEnabled', 'check'], ['personalMessageOptional', 'check'], ['disableSocialWidgetTabs', 'check'],
] as const;
/** Settings' wconfig keys (the per-session and daily caps of the public form). */
export const SETTINGS_KEYS = [['limitEmailsPerSession', 'number'], ['dailySendCap', 'number']] as const;

export const STYLE_COLOURS = ['stylebg', 'stylebghead', 'stylebgbody', 'styletext', 'styleheadtext', 'stylelink'] as const;
const STYLE_SIZES = ['style_fontsize', 'style_fontsize_header'] as const;

type Kind = 'text' | 'number' | 'check';

/** The widget's wconfig with the form's keys applied (a blank or unchecked one removed: its default applies). */
function mergedWconfig(current: Record<string, unknown>, form: Form, keys: ReadonlyArray<readonly [string, Kind]>): Record<string, unknown> {
  const wconfig = { ...current };
  for (const [key, kind] of keys) {
    const value = kind === 'check' ? (checked(form[key]) ? true : undefined) : kind === 'number' ? numberOf(form[key]) : blank(form[key]) ? undefined : form[key]!.trim();
    if (value === undefined) delete wconfig[key];
    else wconfig[key] = value;
  }
  return wconfig;
}

const parsed = (input: Record<string, unknown>): ServiceWidgetInput => parseInput(WidgetInput, input, 'body');

/** The Customize form: display keys and the style columns (blank clears a colour or size). */
export function customizeInput(widget: Widget, form: Form): ServiceWidgetInput {
  const input: Record<string, unknown> = { wconfig: mergedWconfig(widget.wconfig ?? {}, form, CUSTOMIZE_KEYS) };
  for (const key of STYLE_COLOURS) input[key] = blank(form[key]) ? null : form[key]!.trim();
  for (const key of STYLE_SIZES) input[key] = numberOf(form[key]) ?? null;
  input.widgetcss = blank(form.widgetcss) ? null : form.widgetcss;
  return parsed(input);
}

/** Origins one per line (or comma-separated), as the wconfig list; none removes the key (any origin). */
export function originsOf(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).map((o) => o.trim()).filter((o) => o !== '');
}

/** The Share form: the public switch and the allowed origins. */
export function shareInput(widget: Widget, form: Form): ServiceWidgetInput {
  const wconfig = { ...(widget.wconfig ?? {}) };
  const origins = originsOf(form.allowedOrigins);
  if (origins.length) wconfig.allowedOrigins = origins;
  else delete wconfig.allowedOrigins;
  return parsed({ public_share_enabled: checked(form.public_share_enabled), wconfig });
}

/** The Settings form: name, verification, session length, caps and the domain lists (the directory rule has its own form). */
export function settingsInput(widget: Widget, form: Form): ServiceWidgetInput {
  return parsed({
    name: form.name ?? '',
    email_verification_required: checked(form.email_verification_required),
    ...(blank(form.dir_session_timeout_minutes) ? {} : { dir_session_timeout_minutes: numberOf(form.dir_session_timeout_minutes) }),
    sender_email_domains_whitelist: blank(form.sender_email_domains_whitelist) ? null : form.sender_email_domains_whitelist,
    recipient_email_domains_whitelist: blank(form.recipient_email_domains_whitelist) ? null : form.recipient_email_domains_whitelist,
    wconfig: mergedWconfig(widget.wconfig ?? {}, form, SETTINGS_KEYS),
  });
}

/** What a form shows: the widget's saved values, or what the owner typed when the save was refused. */
export function formValues(widget: Widget, typed?: Form): Record<string, unknown> {
  if (typed) {
    const values: Record<string, unknown> = { ...typed };
    for (const [key, kind] of [...CUSTOMIZE_KEYS, ...SETTINGS_KEYS]) if (kind === 'check') values[key] = checked(typed[key]);
    for (const key of ['public_share_enabled', 'email_verification_required']) values[key] = checked(typed[key]);
    return values;
  }
  const w = widget.wconfig ?? {};
  const values: Record<string, unknown> = {};
  for (const [key] of [...CUSTOMIZE_KEYS, ...SETTINGS_KEYS]) values[key] = w[key] ?? '';
  for (const key of [...STYLE_COLOURS, ...STYLE_SIZES, 'widgetcss', 'name', 'public_share_enabled', 'email_verification_required', 'dir_session_timeout_minutes'] as const) {
    values[key] = widget[key] ?? '';
  }
  values.sender_email_domains_whitelist = widget.sender_email_domains_whitelist ?? '';
  values.recipient_email_domains_whitelist = widget.recipient_email_domains_whitelist ?? '';
  values.allowedOrigins = Array.isArray(w.allowedOrigins) ? (w.allowedOrigins as string[]).join('\n') : '';
  return values;
}

/** The defaults the form's hints name (services/widgets/public/display.ts). */
export const defaults = DISPLAY_DEFAULTS;

/** A refusal the form shows above itself (400/422 of the schema or the save's checks), or rethrown. */
export function formError(err: unknown): { message: string; status: number } {
  if (err instanceof ApiError && (err.status === 400 || err.status === 422)) return { message: err.message, status: err.status };
  throw err;
}

/** The tabs' fields in words, as their labels say (Customize, Share, Settings). */
const WIDGET_LABELS = {
  layout: 'Layout',
  thumbColumns: 'Columns',
  thumbHeight: 'Thumbnail height',
  ecardsPerPage: 'eCards per page',
  theme: 'Theme',
  widgetThemeColor: 'Accent colour',
  locale: 'Language',
  shareButtonText: 'Send button text',
  maxRecipients: 'Recipients per send',
  scheduleMaxDays: 'Schedule up to (days)',
  stylebg: 'Page background',
  stylebghead: 'Header background',
  stylebgbody: 'Body background',
  styletext: 'Text colour',
  styleheadtext: 'Header text colour',
  stylelink: 'Links colour',
  style_fontsize: 'Body font size',
  style_fontsize_header: 'Header font size',
  widgetcss: 'Custom CSS',
  allowedOrigins: 'Sites allowed to embed it',
  name: 'Name',
  dir_session_timeout_minutes: 'Session length',
  limitEmailsPerSession: 'Emails per session',
  dailySendCap: 'Sends per day',
  sender_email_domains_whitelist: 'Sender domains allowed',
  recipient_email_domains_whitelist: 'Recipient domains allowed',
};

/** A refusal a tab shows at its fields, in words (the rest above the form), or rethrown as formError does. */
export function fieldRefusal(err: unknown): { errors: FieldErrors; status: number } {
  const { status } = formError(err);
  return { errors: fieldErrorsOf(err as ApiError, WIDGET_LABELS), status };
}
