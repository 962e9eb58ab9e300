// The automation editor's form read as the key API's automation input (the same `SaveAutomationBody` schema as
// `POST /automation/save`), the stored configuration as the form's values, and the service's refusals (zod's and
// `automation_incomplete`'s messages) put beside the fields they name.
import { ApiError } from '../../../lib/errors.ts';
import type { AutomationEventType } from '../../../models/Automation.ts';
import type { AutomationInput } from '../../../services/automations/automations.ts';
import type { AutomationConfig } from '../../../services/automations/config.ts';
import { parseInput } from '../../http/validation.ts';
import { SaveAutomationBody } from '../../automations/schema.ts';

export type Form = Record<string, string>;

/** The seven event types, as the editor names and explains them. */
export const EVENT_TYPES_SHOWN: Array<{ value: AutomationEventType; label: string; hint: string }> = [
  { value: 'birthday', label: 'Birthday', hint: 'Each member on their date of birth (the year and age are never shown).' },
  { value: 'anniversary', label: 'Work anniversary', hint: 'Each member on the anniversary of their hire date, every year or only some.' },
  { value: 'holiday', label: 'Holiday', hint: 'Everyone in scope on one named day every year.' },
  { value: 'fixed_date', label: 'Fixed date', hint: 'Everyone in scope once on a date, or on a month and day every year.' },
  { value: 'custom_field', label: 'Custom date field', hint: 'Each member every year on the date of one of your custom date fields.' },
  { value: 'rule_based', label: 'Milestones', hint: 'Each member a set time after a date (hire date by default): 6 months, 1 year, 100 days…' },
  { value: 'onboarding', label: 'Onboarding', hint: 'Each new member a number of days after their hire date.' },
];
export const labelOfType = (type: AutomationEventType) => EVENT_TYPES_SHOWN.find((t) => t.value === type)?.label ?? type;

/** The fields of the editor a message can sit beside (`general` is the top of the form). */
export type FieldName =
  | 'automation_name' | 'from_name' | 'from_email' | 'locale' | 'years' | 'month' | 'day' | 'name' | 'date' | 'field' | 'date_field'
  | 'days_after_hire' | 'milestone_rules' | 'send_time' | 'timezone' | 'recipient_timezone' | 'days_before' | 'skip_weekends' | 'ecards' | 'random_messages'
  | 'departments' | 'notify_days_before' | 'gift' | 'general';

const blank = (value: string | undefined) => value === undefined || value.trim() === '';
/** A whole number as a number; anything else as typed (the schema names what is wrong); blank → undefined. */
const numberOf = (value: string | undefined): number | string | undefined => (blank(value) ? undefined : /^-?\d+(\.\d+)?$/.test(value!.trim()) ? Number(value!.trim()) : value!.trim());
const checked = (value: string | undefined) => value === 'on' || value === 'yes' || value === 'true';
/**
 * The ids ticked in a group of checkboxes, each named `<prefix><id>` (the form reader keeps one value per name), plus
 * those of a comma-separated field of the same prefix's name (the stored values the editor starts from).
 */
export function tickedIds(form: Form, prefix: string): number[] {
  const ids = (form[`${prefix}ids`] ?? '').split(',').map((v) => Number(v.trim())).filter((n) => n > 0);
  for (const [name, value] of Object.entries(form)) {
    const id = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (Number.isSafeInteger(id) && id > 0 && checked(value)) ids.push(id);
  }
  return [...new Set(ids)];
}
const linesOf = (value: string | undefined) => (value ?? '').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');

const UNITS: Record<string, 'after_years' | 'after_months' | 'after_days'> = {
  y: 'after_years', year: 'after_years', years: 'after_years', m: 'after_months', month: 'after_months', months: 'after_months', d: 'after_days', day: 'after_days', days: 'after_days',
};

/** Milestones one per line ("6 months", "1 year", "100 days"); a line that is none of these is kept for the schema to refuse. */
function rulesOf(text: string | undefined): unknown[] {
  return linesOf(text).map((line) => {
    const match = /^(\d+)\s*([a-z]+)$/i.exec(line);
    const unit = match ? UNITS[match[2]!.toLowerCase()] : undefined;
    return unit ? { [unit]: Number(match![1]) } : { after: line };
  });
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

function rulesText(config: AutomationConfig): string {
  return config.milestone_rules
    .map((r) => (r.after_years !== undefined ? plural(r.after_years, 'year') : r.after_months !== undefined ? plural(r.after_months, 'month') : plural(r.after_days ?? 0, 'day')))
    .join('\n');
}

/** The trigger fields of one event type from the form (a fixed date is either once or every year). */
function triggerOf(type: AutomationEventType, form: Form): Record<string, unknown> {
  switch (type) {
    case 'anniversary':
      return { years: blank(form.years) ? undefined : form.years!.split(/[\s,]+/).filter(Boolean).map((y) => numberOf(y)) };
    case 'holiday':
      return { month: numberOf(form.month), day: numberOf(form.day), name: blank(form.name) ? undefined : form.name };
    case 'fixed_date':
      return form.repeat === 'yearly' ? { month: numberOf(form.month), day: numberOf(form.day) } : { date: blank(form.date) ? undefined : form.date!.trim() };
    case 'custom_field':
      return { field: blank(form.field) ? undefined : form.field };
    case 'rule_based':
      return { date_field: blank(form.date_field) ? undefined : form.date_field };
    case 'onboarding':
      return { days_after_hire: numberOf(form.days_after_hire) };
    default:
      return {};
  }
}

/** The editor's form as the key API's save input: every field of the form replaces the stored one. */
export function automationInputOf(type: AutomationEventType, form: Form, creating: boolean): AutomationInput {
  const timing = { send_time: blank(form.send_time) ? undefined : form.send_time!.trim(), timezone: blank(form.timezone) ? undefined : form.timezone!.trim(), days_before: numberOf(form.days_before), skip_weekends: checked(form.skip_weekends), recipient_timezone: checked(form.recipient_timezone) };
  const automation: Record<string, unknown> = {
    automation_name: form.automation_name ?? '',
    ...(creating ? { event_type: type } : {}),
    from_name: blank(form.from_name) ? null : form.from_name,
    from_email: blank(form.from_email) ? null : form.from_email!.trim(),
    locale: blank(form.locale) ? undefined : form.locale!.trim(),
    trigger_config: triggerOf(type, form),
    timing_config: timing,
    random_messages: linesOf(form.random_messages),
    selected_ecard_ids: tickedIds(form, 'ecard_'),
    selected_department_ids: tickedIds(form, 'department_'),
    notify_days_before: numberOf(form.notify_days_before) ?? 0,
    ...(type === 'rule_based' ? { milestone_rules: rulesOf(form.milestone_rules) } : {}),
  };
  return parseInput(SaveAutomationBody, { automation }, 'body').automation;
}

/** The gift form (gift cards on or off, product and amount) as a save input. */
export function giftInputOf(form: Form): AutomationInput {
  const on = checked(form.gift_card_enabled);
  const gift = blank(form.product_id) && blank(form.amount) ? null : { product_id: form.product_id ?? '', amount: numberOf(form.amount) };
  return parseInput(SaveAutomationBody, { automation: { gift_card_enabled: on, gift_card: gift } }, 'body').automation;
}

/** A stored automation as the editor's fields hold it. */
export function formOf(config: AutomationConfig): Form {
  const t = config.trigger_config;
  const timing = config.timing_config;
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
  const gift = config.gift_card as { product_id?: string; amount?: number } | null;
  return {
    automation_name: config.row.automation_name,
    from_name: text(config.row.from_name),
    from_email: text(config.row.from_email),
    locale: config.row.locale,
    years: Array.isArray(t.years) ? t.years.join(', ') : '',
    month: text(t.month),
    day: text(t.day),
    name: text(t.name),
    date: text(t.date),
    repeat: t.date === undefined && t.month !== undefined ? 'yearly' : 'once',
    field: text(t.field),
    date_field: text(t.date_field),
    days_after_hire: text(t.days_after_hire),
    milestone_rules: rulesText(config),
    send_time: text(timing?.send_time),
    timezone: text(timing?.timezone),
    days_before: text(timing?.days_before),
    skip_weekends: timing?.skip_weekends ? 'on' : '',
    recipient_timezone: timing?.recipient_timezone ? 'on' : '',
    random_messages: config.random_messages.join('\n'),
    ecard_ids: config.selected_ecard_ids.join(','),
    department_ids: config.selected_department_ids.join(','),
    notify_days_before: String(config.row.notify_days_before),
    gift_card_enabled: config.row.gift_card_enabled ? 'on' : '',
    product_id: text(gift?.product_id),
    amount: text(gift?.amount),
  };
}

// Where a message naming a request field goes in the form (the request's names, as zod and the service give them).
const PLACES: Array<[RegExp, FieldName]> = [
  [/trigger_config\.(years)/, 'years'],
  [/trigger_config\.date \(or/, 'date'],
  [/trigger_config\.(month)/, 'month'],
  [/trigger_config\.(day)/, 'day'],
  [/trigger_config\.(name)/, 'name'],
  [/trigger_config\.(date)\b/, 'date'],
  [/trigger_config\.(field)/, 'field'],
  [/trigger_config\.(date_field)/, 'date_field'],
  [/trigger_config\.(days_after_hire)/, 'days_after_hire'],
  [/trigger_config\b/, 'date'],
  [/milestone_rules/, 'milestone_rules'],
  [/timing_config\.send_time/, 'send_time'],
  [/timing_config\.timezone/, 'timezone'],
  [/timing_config\.days_before/, 'days_before'],
  [/timing_config\.skip_weekends/, 'skip_weekends'],
  [/timing_config\.recipient_timezone/, 'recipient_timezone'],
  [/selected_ecard_ids|eCard with id/, 'ecards'],
  [/selected_department_ids|department with id/, 'departments'],
  [/random_messages/, 'random_messages'],
  [/notify_days_before/, 'notify_days_before'],
  [/gift_card|gc_confirmation_token|product|amount/i, 'gift'],
  [/automation_name/, 'automation_name'],
  [/from_name/, 'from_name'],
  [/from_email/, 'from_email'],
  [/locale/, 'locale'],
];

export function placeOf(message: string): FieldName {
  return PLACES.find(([pattern]) => pattern.test(message))?.[1] ?? 'general';
}

/** The messages of a refusal by the field each sits beside. */
export type FieldErrors = Partial<Record<FieldName, string[]>>;

export function fieldErrorsOf(err: ApiError): FieldErrors {
  const errors: FieldErrors = {};
  // automation_incomplete names each missing item in `missing`, beside its sentence in `messages`.
  const missing = Array.isArray(err.extra.missing) ? (err.extra.missing as string[]) : null;
  err.messages.forEach((message, i) => {
    const place = placeOf(missing?.[i] ?? message);
    (errors[place] ??= []).push(message);
  });
  return errors;
}

/** Whether a page shows a refusal as the form again (the owner's input) rather than an error page. */
export const isFormRefusal = (err: unknown): err is ApiError => err instanceof ApiError && err.status !== 404 && err.status < 500 && err.extra.requires_otp !== true;
