// The Stats tab of a widget's page: the funnel of a date range (gallery views → form opens → cards sent by share
// mode → opened) from the same services as the key API's `GET /widget/stats` (with the opens read from the sends),
// and the abuse log of `GET /widget/abuse` (silent refusals and limit hits of the last 30 days). The range is a GET
// form: a bad date is shown beside its field (400), a window the service refuses above the form (422).
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import { SHARE_TYPES } from '../../../models/Send.ts';
import { widgetOpens, type WidgetOpens } from '../../../services/widgets/admin/opens.ts';
import { ABUSE_DAYS, MAX_STATS_DAYS, widgetAbuse, widgetStats, type WidgetAbuse, type WidgetStats } from '../../../services/widgets/admin/stats.ts';
import { definePage, page, type AnyRoute } from '../../http/route.ts';
import { WidgetIdParams } from '../../widgets/schema.ts';
import { Day } from '../../widgets/stats.ts';
import { percent } from '../home/pages.ts';
import { tabPage, widgetOf } from './page.ts';

const RangeQuery = z.object({ dateFrom: Day.optional(), dateTo: Day.optional() });
/** The abuse events listed one by one (the service reads at most 1,000; the totals count them all). */
const EVENTS_SHOWN = 50;

const SHARE_LABELS: Record<string, string> = {
  email: 'Email',
  ecard_copy_link: 'Copied link',
  facebook: 'Facebook',
  twitter: 'X (Twitter)',
  linkedin: 'LinkedIn',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  ecard_viewprint: 'View and print',
  ecard_download: 'Download',
};
const ABUSE_LABELS: Record<string, string> = {
  honeypot: 'Hidden field filled (a bot): answered like a success, nothing sent',
  too_fast: 'Sent under 3 seconds after the form opened: answered like a success, nothing sent',
  ip_limit: 'Per-visitor limit reached (emails per 10 minutes)',
  daily_cap: 'Daily send cap reached',
  domain: 'Address outside the allowed domains',
  verify_ip_limit: 'Too many verification codes asked from one address',
  verify_email_limit: 'Too many verification codes asked for one email',
};

/** A step's bar: its share of the first step, as an SVG rect's width out of 100 (no inline styles under the CSP). */
const bar = (n: number, of: number) => (of > 0 ? Math.max(n > 0 ? 1 : 0, Math.round((n / of) * 1000) / 10) : 0);
const rate = (n: number, of: number) => percent(of > 0 ? n / of : null);

function funnelOf(stats: WidgetStats, opens: WidgetOpens) {
  const { views, form_opens } = stats.totals;
  const sent = Object.values(stats.totals.sends).reduce((sum, n) => sum + n, 0);
  const top = Math.max(views, form_opens, sent, opens.opened, 1);
  return [
    { key: 'views', label: 'Gallery views', about: 'Gallery pages served', value: views, bar: bar(views, top), rate: undefined },
    { key: 'form_opens', label: 'Form opens', about: 'An eCard chosen and its form shown', value: form_opens, bar: bar(form_opens, top), rate: views > 0 ? `${rate(form_opens, views)} of views` : undefined },
    { key: 'sends', label: 'Cards sent', about: 'Emails (one per recipient) and share links', value: sent, bar: bar(sent, top), rate: form_opens > 0 ? `${rate(sent, form_opens)} of form opens` : undefined },
    { key: 'opens', label: 'Opened', about: `Recipients who opened their card, of ${opens.recipients} sent from this widget`, value: opens.opened, bar: bar(opens.opened, top), rate: opens.recipients > 0 ? `${rate(opens.opened, opens.recipients)} of recipients` : undefined },
  ];
}

function abuseOf(abuse: WidgetAbuse) {
  const kinds = Object.entries(abuse.totals)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([kind, n]) => ({ kind, label: ABUSE_LABELS[kind] ?? kind, n }));
  const total = kinds.reduce((sum, k) => sum + k.n, 0);
  const events = abuse.events.slice(0, EVENTS_SHOWN).map((e) => ({ at: e.at, label: ABUSE_LABELS[e.kind]?.split(':')[0] ?? e.kind }));
  return { since: abuse.since, total, kinds, events, more: Math.max(0, total - events.length) };
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export const widgetStatsRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets/:id/stats',
    params: WidgetIdParams,
    async handler({ params }, { services, account, koa }) {
      const widget = await widgetOf(services, account.id, params.id);
      const typed = { dateFrom: text(koa.query.dateFrom), dateTo: text(koa.query.dateTo) };
      const base = { typed, styles: ['home.css'], abuseDays: ABUSE_DAYS, maxDays: MAX_STATS_DAYS };
      const abuse = abuseOf(await widgetAbuse(services, account.id, widget.id));
      const parsed = RangeQuery.safeParse({ dateFrom: typed.dateFrom || undefined, dateTo: typed.dateTo || undefined });
      if (!parsed.success) {
        const fieldErrors: Record<string, string> = {};
        for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= `${String(issue.path[0])}: ${issue.message}`;
        return page(tabPage(widget, 'stats', 'widget-stats', { ...base, abuse, fieldErrors, error: 'Check the dates: each is a day written YYYY-MM-DD.' }), 400);
      }
      let stats: WidgetStats;
      try {
        stats = await widgetStats(services, account.id, widget.id, parsed.data);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 422) throw err;
        return page(tabPage(widget, 'stats', 'widget-stats', { ...base, abuse, error: err.message }), 422);
      }
      const opens = await widgetOpens(services, account.id, widget.id, { from: stats.dateFrom, to: stats.dateTo });
      const modes = [...new Set([...SHARE_TYPES, ...Object.keys(stats.totals.sends)])].map((mode) => ({ mode, label: SHARE_LABELS[mode] ?? mode, n: stats.totals.sends[mode] ?? 0 }));
      const active = stats.days.filter((d) => d.views + d.form_opens + d.silent + Object.values(d.sends).reduce((s, n) => s + n, 0) > 0);
      return page(
        tabPage(widget, 'stats', 'widget-stats', {
          ...base,
          range: { from: stats.dateFrom, to: stats.dateTo, days: stats.days.length === 1 ? '1 day' : `${stats.days.length} days` },
          funnel: funnelOf(stats, opens),
          modes,
          silent: stats.totals.silent,
          days: active.map((d) => ({ date: d.date, views: d.views, form_opens: d.form_opens, sends: Object.values(d.sends).reduce((s, n) => s + n, 0), silent: d.silent })),
          abuse,
        }),
      );
    },
  }),
];
