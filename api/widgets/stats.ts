// A widget's public use for its owner (`widgets: view`): daily counters and the abuse log of the last 30 days.
import { z } from 'zod';
import { widgetAbuse, widgetStats } from '../../services/widgets/admin/stats.ts';
import { defineRoute } from '../http/route.ts';
import { numericId, resource, withAliases } from '../schema-helpers.ts';

const tags = ['widgets'];
const view = { area: 'widgets', level: 'view' } as const;

/** A calendar day, YYYY-MM-DD (UTC), that exists. */
export const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'not a calendar day');

const WidgetId = resource('widget', numericId()).describe('the widget’s numeric id');

const Counts = z.object({
  views: z.number().int().describe('gallery pages served'),
  form_opens: z.number().int().describe('form tokens issued after choosing an eCard'),
  silent: z.number().int().describe('submissions answered like a success and dropped (honeypot, too fast)'),
  sends: z.record(z.string(), z.number().int()).describe('share mode → sends (`email` counts emails)'),
});

const WidgetStats = z.object({
  widgetid: z.number().int(),
  dateFrom: z.string(),
  dateTo: z.string(),
  totals: Counts,
  days: z.array(Counts.extend({ date: z.string() })).describe('every day of the window, oldest first'),
});

const WidgetAbuse = z.object({
  widgetid: z.number().int(),
  since: z.string().describe('the log’s start: 30 days ago'),
  totals: z.record(z.string(), z.number().int()).describe('kind → events'),
  days: z.array(z.object({ date: z.string(), counts: z.record(z.string(), z.number().int()) })).describe('days with events, oldest first'),
  events: z.array(z.object({ kind: z.string(), at: z.string() })).describe('newest first, at most 1,000'),
});

export const widgetStatsRoutes = [
  defineRoute({
    method: 'get',
    path: '/widget/stats',
    summary: 'A widget’s daily counters: views, form opens, sends by share mode, silent refusals (UTC days; default the last 30; at most 366)',
    tags,
    access: view,
    query: withAliases(z.object({ widgetid: WidgetId, dateFrom: Day.optional(), dateTo: Day.optional() }), { widgetid: ['widgetId', 'widgetID'] }),
    response: WidgetStats,
    async handler({ query }, { services, caller }) {
      return widgetStats(services, caller.account.id, query.widgetid, query);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/widget/abuse',
    summary: 'A widget’s abuse log of the last 30 days: silent refusals and limit hits, by kind, per day and one by one',
    tags,
    access: view,
    query: withAliases(z.object({ widgetid: WidgetId }), { widgetid: ['widgetId', 'widgetID'] }),
    response: WidgetAbuse,
    async handler({ query }, { services, caller }) {
      return widgetAbuse(services, caller.account.id, query.widgetid);
    },
  }),
];
