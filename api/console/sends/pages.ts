// The console's sends log (filters as GET form fields, 50 rows a page), its CSV export (streamed, the same
// filters), a send's page (its recipients' states and opens, its ecard_shared webhook deliveries) and cancel while
// scheduled, behind a confirmation.
import type { Context } from 'koa';
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { cancelSend } from '../../../services/sends/accept/cancel.ts';
import { sendsCsv } from '../../../services/sends/log/csv-export.ts';
import { findLoggedSend, listSends, SEND_ORIGINS, SEND_STATUSES, type LoggedSend, type SendFilters } from '../../../services/sends/log/log.ts';
import { pageUrl } from '../../../services/sends/card-page/pages.ts';
import { eventDeliveries } from '../../../services/webhooks/deliveries.ts';
import type { ApiServices } from '../../context.ts';
import { definePage, download, page, seeOther, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { filledQuery } from '../../http/validation.ts';
import { resource } from '../../schema-helpers.ts';
import { paging } from '../kit/render.ts';
import { SendIdParams } from '../send/pages.ts';

const BASE = `${CONSOLE_PREFIX}/sends`;
export const SEND_LOG_ROWS = 50;
const DAY_MS = 86_400_000;

const NOTICES: Record<string, string> = { canceled: 'The send is canceled; nothing will go out and its quota is given back.' };
const noticeOf = (ctx: Context) => NOTICES[String(ctx.query.done)] ?? undefined;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Give a date as YYYY-MM-DD.' }).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), { error: 'Not a date.' });
const digits = (kind: 'widget' | 'ecard') => resource(kind, z.string().regex(/^\d{1,15}$/, { error: 'Choose one from the list.' }).transform(Number));

/** The log's filters as the form names them (the key API's names); blank fields are dropped before this. */
export const SendLogQuery = z.object({
  status: z.enum(SEND_STATUSES, { error: 'Choose a status from the list.' }).optional(),
  origin: z.enum(SEND_ORIGINS, { error: 'Choose an origin from the list.' }).optional(),
  widgetId: digits('widget').optional(),
  ecardId: digits('ecard').optional(),
  dateFrom: day.optional(),
  dateTo: day.optional(),
  recipientEmail: z.email({ error: 'Give a whole email address (the search is exact).' }).max(254).optional(),
  page: z.string().regex(/^\d{1,6}$/, { error: 'expected a page number' }).transform(Number).refine((n) => n >= 1, { error: 'expected a page number' }).optional(),
});
const FILTERS = ['status', 'origin', 'widgetId', 'ecardId', 'dateFrom', 'dateTo', 'recipientEmail'] as const;

type Parsed = { filters: SendFilters; page: number; shown: Record<string, string> } | { errors: Record<string, string>; shown: Record<string, string> };

/** The query read as filters (days are UTC; "to" includes its whole day), or each bad field's message. */
function parseQuery(query: Context['query']): Parsed {
  const shown = filledQuery(query);
  const result = SendLogQuery.safeParse(shown);
  if (!result.success) {
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
    return { errors, shown };
  }
  const q = result.data;
  const filters: SendFilters = {
    status: q.status,
    origin: q.origin,
    widgetId: q.widgetId,
    ecardId: q.ecardId,
    dateFrom: q.dateFrom ? new Date(`${q.dateFrom}T00:00:00Z`) : undefined,
    dateTo: q.dateTo ? new Date(Date.parse(`${q.dateTo}T00:00:00Z`) + DAY_MS) : undefined,
    recipientEmail: q.recipientEmail,
  };
  return { filters, page: q.page ?? 1, shown };
}

const STATUS_BADGES: Record<string, string> = { sent: 'badge-success', failed: 'badge-danger', scheduled: 'badge-warning', pending: 'badge-warning', canceled: '' };
const iso = (date: Date | null | undefined) => date?.toISOString() ?? '';

function rowOf({ send, ecardName, widgetName, recipients }: LoggedSend) {
  const [first] = recipients;
  return {
    id: send.send_id,
    createdat: iso(send.created_at),
    sendat: iso(send.send_at),
    status: send.status,
    badge: STATUS_BADGES[send.status],
    mode: send.mode,
    origin: send.origin,
    ecardName,
    widgetName,
    firstRecipient: first ? first.recipient_email ?? first.recipient_name : '',
    more: recipients.length > 1 ? recipients.length - 1 : 0,
    opens: recipients.filter((r) => r.opened_at).length,
    recipients: recipients.length,
  };
}

/** The widgets and eCards the filters offer (the account's, by name). */
async function choicesOf(services: ApiServices, account: Account, shown: Record<string, string>) {
  const [widgets, ecards] = await Promise.all([
    services.models.Widget.findAll({ where: { account_id: account.id }, attributes: ['id', 'name'], order: [['name', 'ASC'], ['id', 'ASC']], limit: 500 }),
    services.models.Ecard.findAll({ where: { account_id: account.id }, attributes: ['id', 'name'], order: [['name', 'ASC'], ['id', 'ASC']], limit: 1000 }),
  ]);
  return {
    statuses: SEND_STATUSES.map((value) => ({ value, selected: value === shown.status })),
    origins: SEND_ORIGINS.map((value) => ({ value, selected: value === shown.origin })),
    widgets: widgets.map((w) => ({ id: w.id, name: w.name, selected: String(w.id) === shown.widgetId })),
    ecards: ecards.map((e) => ({ id: e.id, name: e.name, selected: String(e.id) === shown.ecardId })),
  };
}

async function detailPage(services: ApiServices, account: Account, sendId: string, extra: { notice?: string | undefined; error?: string | undefined } = {}, status?: number): Promise<PageResult> {
  const logged = await findLoggedSend(services, account.id, sendId);
  const { send } = logged;
  const deliveries = await eventDeliveries(services, account.id, 'ecard_shared', send.send_id);
  return page(
    {
      title: `Send to ${rowOf(logged).firstRecipient || 'a share link'}${logged.recipients.length > 1 ? ` and ${logged.recipients.length - 1} more` : ''}`,
      view: 'send-detail',
      styles: ['sends.css'],
      ...extra,
      send: {
        ...rowOf(logged),
        senderName: send.sender_name,
        senderEmail: send.sender_email,
        emailsSent: send.emails_sent,
        error: send.error,
        sandbox: send.sandbox,
        ecardId: send.ecard_id,
        widgetId: send.widget_id,
      },
      shareUrl: send.mode === 'share' ? pageUrl(services.config.publicBaseUrl, send.stat_vanity_id) : undefined,
      cancelable: send.status === 'scheduled',
      recipients: logged.recipients.map((r) => ({
        position: r.position,
        name: r.recipient_name,
        email: r.recipient_email,
        status: r.status,
        badge: STATUS_BADGES[r.status],
        finishedat: iso(r.finished_at),
        openedat: iso(r.opened_at),
        error: r.error,
      })),
      deliveries: deliveries.map(({ delivery, url }) => ({ id: delivery.id, url, status: delivery.status, attempts: delivery.attempts, createdat: iso(delivery.created_at), error: delivery.error })),
    },
    status,
  );
}

export const sendLogPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/sends',
    // The filters are read by the handler, so a bad one is the log again with its message beside it.
    fromQuery: () => ({}),
    async handler(_input, { services, account, koa }) {
      const parsed = parseQuery(koa.query);
      const choices = await choicesOf(services, account, parsed.shown);
      const common = { title: 'Sends', view: 'sends', styles: ['sends.css'], filters: parsed.shown, ...choices };
      if ('errors' in parsed) return page({ ...common, errors: parsed.errors, invalid: true, error: 'Some filters are not valid: see the messages beside them.' }, 400);
      const { rows, count } = await listSends(services, account.id, parsed.filters, { page: parsed.page, perPage: SEND_LOG_ROWS });
      const { page: _page, ...filters } = parsed.shown;
      const link = (n: number) => `${BASE}?${new URLSearchParams({ ...filters, page: String(n) }).toString()}`;
      const filtered = FILTERS.some((f) => f in filters);
      return page({
        ...common,
        errors: {},
        filtered,
        sends: rows.map(rowOf),
        exportHref: `${BASE}/export.csv${Object.keys(filters).length ? `?${new URLSearchParams(filters).toString()}` : ''}`,
        ...paging(parsed.page, SEND_LOG_ROWS, count, link),
      });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/sends/export.csv',
    fromQuery: () => ({}),
    async handler(_input, { services, account, koa }) {
      const parsed = parseQuery(koa.query);
      if ('errors' in parsed) return seeOther(`${BASE}?${new URLSearchParams(parsed.shown).toString()}`);
      const stamp = services.now().toISOString().slice(0, 10);
      return download(await sendsCsv(services, account.id, parsed.filters), 'text/csv; charset=utf-8', `sends-${stamp}.csv`);
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/sends/:id',
    params: SendIdParams,
    async handler({ params }, { services, account, koa }) {
      return detailPage(services, account, params.id, { notice: noticeOf(koa) });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'manage' },
    path: '/sends/:id/cancel',
    params: SendIdParams,
    async handler({ params }, { services, account }) {
      const logged = await findLoggedSend(services, account.id, params.id);
      if (logged.send.status !== 'scheduled') return seeOther(`${BASE}/${params.id}`);
      return page({ title: 'Cancel this send?', view: 'send-cancel', styles: ['sends.css'], send: rowOf(logged), recipients: logged.recipients.length });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'sends', level: 'manage' },
    path: '/sends/:id/cancel',
    audit: 'sends.cancel',
    params: SendIdParams,
    async handler({ params }, { services, account }) {
      try {
        await cancelSend(services, account.id, params.id);
      } catch (err) {
        // Sent (or canceled) in the meantime: the send's page with the reason.
        if (!(err instanceof ApiError) || err.status !== 422) throw err;
        return detailPage(services, account, params.id, { error: err.message }, 422);
      }
      return seeOther(`${BASE}/${params.id}?done=canceled`);
    },
  }),
];
