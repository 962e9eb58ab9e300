// The console's Send page: one card composed and sent through the same use case as the key API's send-ecard (email
// now, scheduled in a time zone, or a share link), then an answer page that says what happened and links to the
// send's page. The form's messages stand beside their fields; a refused form writes nothing.
import { z } from 'zod';
import { notFound } from '../../../lib/errors.ts';
import { accountSendableEcards } from '../../../services/ecards/records.ts';
import { MAX_RECIPIENTS } from '../../../services/sends/accept/accept.ts';
import { PERSONAL_MESSAGE_MAX } from '../../../services/sends/accept/personal-message.ts';
import { canonicalTimeZone, localIso } from '../../../services/campaigns/schedule-time.ts';
import { findLoggedSend } from '../../../services/sends/log/log.ts';
import { pageUrl } from '../../../services/sends/card-page/pages.ts';
import { sendEcard } from '../../../services/sends/accept/send-ecard.ts';
import { definePage, page, seeOther, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { resource } from '../../schema-helpers.ts';
import type { ApiServices } from '../../context.ts';
import type { Account } from '../../../models/Account.ts';
import { zoneOptions } from '../kit/time-zones.ts';
import { checkForm, fieldErrorOf, FIRST_ROWS, valuesOf, type FieldErrors, type SendFormValues } from './form.ts';

const BASE = `${CONSOLE_PREFIX}/send`;
export const SendIdParams = z.object({ id: resource('send', z.uuid({ error: 'expected a send id (a UUID)' })) });

const DELIVERY_LABELS = { now: 'Send now', schedule: 'Schedule', link: 'Share link (no email)' } as const;

interface FormState {
  values: SendFormValues;
  errors?: FieldErrors;
  /** Recipient rows to show (at least the ones posted). */
  rows?: number;
}

async function formPage(services: ApiServices, account: Account, state: FormState, status?: number): Promise<PageResult> {
  const { values, errors = {} } = state;
  const ecards = await accountSendableEcards(services, account.id, services.now());
  const groups = new Map<string, Array<{ id: number; name: string; selected: boolean }>>();
  for (const e of ecards) {
    const widget = e.Widget?.name ?? `Widget ${e.widget_id}`;
    groups.set(widget, [...(groups.get(widget) ?? []), { id: e.id, name: e.name, selected: String(e.id) === values.ecardid }]);
  }
  const count = Math.min(MAX_RECIPIENTS, Math.max(state.rows ?? FIRST_ROWS, values.rows.length));
  const posted = new Map(values.rows.map((r, i) => [i + 1, r]));
  const rows = Array.from({ length: count }, (_v, i) => {
    const n = i + 1;
    // Rows are renumbered from 1 as shown, so the messages of a posted row N stay with the row shown as N.
    const row = posted.get(n);
    const old = row?.n ?? n;
    return { n, name: row?.name ?? '', email: row?.email ?? '', nameError: errors[`recipient_name_${old}`], emailError: errors[`recipient_email_${old}`] };
  });
  return page(
    {
      title: 'Send a card',
      view: 'send',
      styles: ['sends.css'],
      scripts: ['send.js'],
      error: errors.form,
      invalid: Object.keys(errors).length > 0,
      values,
      errors,
      groups: [...groups].map(([widget, items]) => ({ widget, items })),
      noEcards: ecards.length === 0,
      rows,
      maxRows: MAX_RECIPIENTS,
      messageMax: PERSONAL_MESSAGE_MAX,
      moreRows: count < MAX_RECIPIENTS,
      deliveries: (['now', 'schedule', 'link'] as const).map((value) => ({ value, label: DELIVERY_LABELS[value], checked: value === values.delivery })),
      zones: zoneOptions(values.timezone),
      formKey: values.form_key || crypto.randomUUID(),
    },
    status,
  );
}

export const sendPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'manage' },
    path: '/send',
    query: z.object({ ecardid: resource('ecard', z.string().regex(/^\d{1,15}$/, { error: 'expected an eCard id' })).optional() }),
    async handler({ query }, { services, account, page: session }) {
      if (query.ecardid !== undefined) {
        // A chosen eCard (from an eCard's page) must be the account's, as every id a page takes.
        const own = await services.models.Ecard.findOne({ where: { id: Number(query.ecardid), account_id: account.id }, attributes: ['id'] });
        if (!own) throw notFound(`No eCard with id ${query.ecardid}`);
      }
      const values = valuesOf({ ecardid: query.ecardid ?? '', sender_name: session.me.account_name, sender_email: session.me.owner_email });
      return formPage(services, account, { values: { ...values, form_key: crypto.randomUUID() } });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'sends', level: 'manage' },
    path: '/send',
    audit: { none: 'a send is not audited: the send log is its record' },
    async handler({ form }, { services, account }) {
      const values = valuesOf(form);
      // No JavaScript: "More recipient rows" posts the form to get it back with more rows; nothing is sent.
      if (form.more === 'rows') return formPage(services, account, { values, rows: values.rows.length + 5 });
      const checked = checkForm(values);
      if ('errors' in checked) return formPage(services, account, { values, errors: checked.errors }, 400);
      try {
        const send = await sendEcard(services, account, checked.request);
        return seeOther(`${BASE}/sent/${send.send_id}?tz=${encodeURIComponent(checked.zone)}`);
      } catch (err) {
        const errors = fieldErrorOf(err, values);
        if (!errors) throw err;
        return formPage(services, account, { values, errors }, (err as { status: number }).status);
      }
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/send/sent/:id',
    params: SendIdParams,
    async handler({ params }, { services, account, koa }) {
      const { send, ecardName, recipients } = await findLoggedSend(services, account.id, params.id);
      let zone = 'UTC';
      try {
        zone = canonicalTimeZone(String(koa.query.tz ?? 'UTC'));
      } catch {
        // An unknown zone in the link: the time is shown in UTC.
      }
      const local = localIso(send.send_at, zone);
      return page({
        title: send.mode === 'share' ? 'Share link ready' : send.status === 'scheduled' ? 'Card scheduled' : send.status === 'failed' ? 'Card not sent' : 'Card sent',
        view: 'send-done',
        styles: ['sends.css'],
        scripts: ['send.js'],
        send: { id: send.send_id, status: send.status, error: send.error, emailsSent: send.emails_sent, sandbox: send.sandbox },
        ecardName,
        recipients: recipients.map((r) => ({ name: r.recipient_name, email: r.recipient_email })),
        share: send.mode === 'share',
        shareUrl: send.mode === 'share' ? pageUrl(services.config.publicBaseUrl, send.stat_vanity_id) : undefined,
        scheduled: send.status === 'scheduled',
        pending: send.status === 'pending',
        failed: send.status === 'failed',
        sent: send.status === 'sent',
        canceled: send.status === 'canceled',
        localTime: `${local.slice(0, 10)} ${local.slice(11, 16)}`,
        zone,
        utc: send.send_at.toISOString(),
      });
    },
  }),
];
