// The Send page's form read as the send use case's request (the same one send-ecard builds): its fields checked
// one by one so each message stands beside its field, and the use case's refusals mapped back to the field they
// are about. Nothing here sends: send.ts calls sendEcard with what this returns.
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import { MAX_RECIPIENTS, type SendRequest } from '../../../services/sends/accept/accept.ts';
import { canonicalTimeZone, parseScheduledAt } from '../../../services/campaigns/schedule-time.ts';
import { PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG } from '../../../services/sends/accept/personal-message.ts';
import { requestHashOf } from '../../../services/sends/accept/send-ecard.ts';

export type Delivery = 'now' | 'schedule' | 'link';
export const DELIVERIES: readonly Delivery[] = ['now', 'schedule', 'link'];
/** Rows the form shows at first; the page's script (or the "More rows" button) adds more, up to MAX_RECIPIENTS. */
export const FIRST_ROWS = 3;

/** Field name → message, shown beside that field (`form` for what belongs to no one field). */
export type FieldErrors = Record<string, string>;

export interface RecipientRow {
  n: number;
  name: string;
  email: string;
}

export interface SendFormValues {
  ecardid: string;
  sender_name: string;
  sender_email: string;
  message: string;
  delivery: Delivery;
  send_at: string;
  timezone: string;
  form_key: string;
  rows: RecipientRow[];
}

const isEmail = (value: string) => z.email().safeParse(value).success;

/** The form as posted, trimmed; recipient rows are `recipient_name_N` / `recipient_email_N`, N from 1. */
export function valuesOf(form: Record<string, string>): SendFormValues {
  const text = (name: string) => (form[name] ?? '').trim();
  const rows: RecipientRow[] = [];
  for (let n = 1; n <= MAX_RECIPIENTS + 1; n++) {
    if (!(`recipient_name_${n}` in form) && !(`recipient_email_${n}` in form)) continue;
    rows.push({ n, name: text(`recipient_name_${n}`), email: text(`recipient_email_${n}`) });
  }
  const delivery = DELIVERIES.find((d) => d === form.delivery) ?? 'now';
  return {
    ecardid: text('ecardid'),
    sender_name: text('sender_name'),
    sender_email: text('sender_email'),
    // A form posts a line break as CRLF; the box's maxlength counts it as one character, and so does the limit.
    message: (form.message ?? '').trim().replace(/\r\n/g, '\n'),
    delivery,
    send_at: text('send_at'),
    timezone: text('timezone') || 'UTC',
    form_key: text('form_key'),
    rows,
  };
}

/** A typed message as the personal message's HTML: text escaped, paragraphs and line breaks kept. */
export function messageHtml(text: string): string | undefined {
  if (text === '') return undefined;
  const escape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => `<p>${escape(p.trim()).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

export type Checked = { request: SendRequest; zone: string } | { errors: FieldErrors };

/** Every field checked (all messages at once); a request for the use case when nothing is wrong. */
export function checkForm(values: SendFormValues): Checked {
  const errors: FieldErrors = {};
  if (!/^\d{1,15}$/.test(values.ecardid)) errors.ecardid = 'Choose the eCard to send.';
  if (values.sender_name === '') errors.sender_name = 'Give the sender’s name.';
  else if (values.sender_name.length > 200) errors.sender_name = 'At most 200 characters.';
  if (values.sender_email === '') errors.sender_email = 'Give the sender’s email address.';
  else if (values.sender_email.length > 254 || !isEmail(values.sender_email)) errors.sender_email = `“${values.sender_email.slice(0, 80)}” is not a valid email address.`;
  if (values.message.length > PERSONAL_MESSAGE_MAX) errors.message = `The personal message is too long: ${PERSONAL_MESSAGE_TOO_LONG}.`;

  const filled = values.rows.filter((r) => r.name !== '' || r.email !== '');
  if (filled.length > MAX_RECIPIENTS) errors.recipients = `At most ${MAX_RECIPIENTS} recipients per send (got ${filled.length}).`;
  for (const row of filled) {
    if (values.delivery !== 'link' || row.email !== '') {
      if (row.email === '') errors[`recipient_email_${row.n}`] = 'Give this recipient’s email address.';
      else if (row.email.length > 254 || !isEmail(row.email)) errors[`recipient_email_${row.n}`] = `“${row.email.slice(0, 80)}” is not a valid email address.`;
    }
    if (row.name === '') errors[`recipient_name_${row.n}`] = 'Give this recipient’s name.';
    else if (row.name.length > 200) errors[`recipient_name_${row.n}`] = 'At most 200 characters.';
  }
  if (values.delivery !== 'link' && filled.length === 0) errors.recipients = 'Give at least one recipient.';
  if (values.delivery === 'link' && filled.length > 1) errors.recipients = 'A share link has one recipient (or none): remove the other rows.';

  let zone = 'UTC';
  let sendAt: Date | undefined;
  try {
    zone = canonicalTimeZone(values.timezone);
  } catch {
    errors.timezone = 'Choose a time zone from the list.';
  }
  if (values.delivery === 'schedule') {
    if (values.send_at === '') errors.send_at = 'Give the date and time to send at.';
    else if (!errors.timezone) {
      try {
        sendAt = parseScheduledAt(values.send_at, zone);
      } catch {
        errors.send_at = 'Give the date and time as YYYY-MM-DD HH:MM.';
      }
    }
  }
  if (Object.keys(errors).length) return { errors };

  const rows = values.delivery === 'link' ? filled.slice(0, 1) : filled;
  const recipientNames = rows.map((r) => r.name);
  const recipientEmails = rows.flatMap((r) => (r.email ? [r.email] : []));
  const body = {
    ecardId: Number(values.ecardid),
    senderEmail: values.sender_email,
    senderName: values.sender_name,
    recipientName: recipientNames,
    recipientEmail: recipientEmails,
    sendAt: sendAt?.toISOString(),
    share: values.delivery === 'link',
    personalMessage: messageHtml(values.message),
  };
  return {
    zone,
    request: {
      ecardId: body.ecardId,
      senderEmail: body.senderEmail,
      senderName: body.senderName,
      recipientNames,
      recipientEmails,
      sendAt,
      share: body.share,
      widgetId: undefined,
      personalMessage: body.personalMessage,
      locale: undefined,
      mergeTags: undefined,
      overrideProps: undefined,
      // One key per rendering of the form: a second click on Send (or a reload of the POST) sends once.
      idempotencyKey: /^[\x21-\x7e]{1,200}$/.test(values.form_key) ? `console:${values.form_key}` : undefined,
      requestHash: requestHashOf(body),
    },
  };
}

/** The use case's refusal beside the field it is about; null for a failure that is not the form's (re-thrown). */
export function fieldErrorOf(err: unknown, values: SendFormValues): FieldErrors | null {
  if (!(err instanceof ApiError) || err.status >= 500 && err.code !== 'provider') return null;
  const message = err.message;
  switch (err.code) {
    case 'einvalid':
    case 'notindirectory':
      return { sender_email: message };
    case 'finvalid': {
      const row = values.rows.find((r) => r.email !== '' && message.includes(JSON.stringify(r.email)));
      return row ? { [`recipient_email_${row.n}`]: message } : { recipients: message };
    }
    case 'tooshort':
    case 'toomany':
    case 'blocked':
      return { recipients: message };
    case 'send_at_past':
    case 'send_at_too_far':
      return { send_at: message };
    case 'not_found':
      return { ecardid: 'This eCard cannot be sent now (it was hidden, deleted or is outside its publish dates): choose another.' };
    case 'idempotency_mismatch':
      return { form: 'This form was already sent with other values: open the Send page again for a new card.' };
    default:
      return { form: message };
  }
}
