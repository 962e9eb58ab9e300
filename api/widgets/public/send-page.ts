// The no-JavaScript send (POST /w/{vanity_id}/send): the form's fields, urlencoded with the JSON contract's names
// flattened (`sender_name`, `recipients[0][email]`, `getReadReceipt=on`, ...), through the same use case as the
// API. A success is a 303 to the thank-you page; a refusal a 303 back to the card's form with `?error=<code>`,
// which the form shows as a sentence. An unknown, private or campaign widget is the same 404 as everywhere.
import { ApiError } from '../../../lib/errors.ts';
import { sendThroughWidget } from '../../../services/widgets/public/send.ts';
import { readFormBody } from '../../http/body.ts';
import { isForeignOrigin } from '../../http/session-cookie.ts';
import { defineFile, type AnyRoute, type FileResult } from '../../http/route.ts';
import { WidgetSendBody, WidgetVanityParams } from './send-schema.ts';

const RECIPIENT_FIELD = /^recipients\[(\d{1,2})\]\[(name|email)\]$/;

/** The form's flat fields in the JSON contract's shape (blank optional fields are absent; checkboxes are `on`). */
export function fromForm(form: Record<string, string>): Record<string, unknown> {
  const recipients: Array<{ name: string; email: string }> = [];
  for (const [key, value] of Object.entries(form)) {
    const match = RECIPIENT_FIELD.exec(key);
    if (!match) continue;
    const slot = (recipients[Number(match[1])] ??= { name: '', email: '' });
    slot[match[2] as 'name' | 'email'] = value;
  }
  const filled = (name: string) => (form[name] ? form[name] : undefined);
  return {
    form_token: form.form_token ?? '',
    fax_number: filled('fax_number'),
    ecard: form.ecard ?? '',
    share_mode: form.share_mode ?? '',
    sender: { name: form.sender_name ?? '', email: form.sender_email ?? '' },
    // Rows the visitor left blank (the form shows spare ones) are no recipients.
    recipients: recipients.filter((r) => r && (r.name.trim() || r.email.trim())),
    // A form posts a line break as CRLF; the box's maxlength (and the JSON path) count it as one character.
    personalMessage: filled('personalMessage')?.replace(/\r\n/g, '\n'),
    sendAt: filled('sendAt'),
    getReadReceipt: form.getReadReceipt === 'on' || form.getReadReceipt === 'true',
    optedIn: form.optedIn === 'on' || form.optedIn === 'true',
    widget_session: filled('widget_session'),
  };
}

const NOT_FOUND: FileResult = { status: 404, type: 'text/plain; charset=utf-8', body: 'Not found' };

export const sendPageRoutes: AnyRoute[] = [
  defineFile({
    method: 'post',
    path: '/w/:vanity_id/send',
    params: WidgetVanityParams,
    async handler({ params }, { services, koa }) {
      koa.set('Cache-Control', 'no-store');
      koa.set('Referrer-Policy', 'no-referrer');
      if (isForeignOrigin(koa, services.config.publicBaseUrl)) return { status: 403, type: 'text/plain; charset=utf-8', body: 'This form belongs to another site' };
      const form = await readFormBody(koa, services.config.bodyLimitBytes);
      const base = `/w/${encodeURIComponent(params.vanity_id)}`;
      const back = (code: string) => ({ seeOther: `${base}/e/${encodeURIComponent(form.ecard ?? '')}?error=${encodeURIComponent(code)}` });
      const parsed = WidgetSendBody.safeParse(fromForm(form));
      if (!parsed.success) {
        // A message over the limit gets its own sentence (the limit named); any other field the form's general one.
        const tooLong = parsed.error.issues.some((issue) => issue.path[0] === 'personalMessage' && issue.code === 'too_big');
        return form.ecard ? back(tooLong ? 'message_too_long' : 'invalid_parameter') : { seeOther: `${base}?error=invalid_parameter` };
      }
      try {
        const sent = await sendThroughWidget(services, params.vanity_id, parsed.data, koa.ip);
        const query = new URLSearchParams({ ecard: parsed.data.ecard, mode: parsed.data.share_mode });
        if (sent.mode === 'share') query.set('share', sent.shareUrl);
        return { seeOther: `${base}/sent?${query.toString()}` };
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        // The widget and its cards answer 404 as the pages do: nothing to go back to.
        if (err.code === 'not_found') return NOT_FOUND;
        return back(err.code);
      }
    },
  }),
];
