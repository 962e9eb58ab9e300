// The console's Audit log page (Settings › Audit log): the current account's rows newest first, filtered by action
// (or area.*), actor kind, outcome and UTC days, "Older" by before_id, and the same rows as CSV (itself audited).
import { auditCsv } from '../../../services/audit/csv.ts';
import { listAuditEvents, type AuditFilters } from '../../../services/audit/query.ts';
import { ACTOR_TYPES, type ActorType } from '../../../models/AuditEvent.ts';
import { definePage, download, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { presentAuditEvent } from '../../audit/present.ts';

const BASE = `${CONSOLE_PREFIX}/settings/audit`;
const ROWS = 50;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

type Shown = Partial<Record<'action' | 'actor_type' | 'outcome' | 'from' | 'to' | 'before_id', string>>;

/** The page's filters as typed (shown back in the form), what the service reads, and each refusal beside its field. */
function parseFilters(query: Record<string, unknown>): { shown: Shown; filters: AuditFilters; beforeId: number | undefined; errors: Record<string, string> } {
  const text = (name: keyof Shown) => (typeof query[name] === 'string' && query[name] !== '' ? (query[name]).trim() : undefined);
  const shown: Shown = Object.fromEntries((['action', 'actor_type', 'outcome', 'from', 'to', 'before_id'] as const).flatMap((k) => (text(k) ? [[k, text(k)]] : [])));
  const errors: Record<string, string> = {};
  const filters: AuditFilters = {};
  if (shown.action) {
    if (/^[a-z_]{1,30}\.([a-z_]{1,30}|\*)$/.test(shown.action)) filters.action = shown.action;
    else errors.action = 'An action is area.verb (keys.create), or area.* for every action of an area (keys.*).';
  }
  if (shown.actor_type) {
    if ((ACTOR_TYPES as readonly string[]).includes(shown.actor_type)) filters.actor_type = shown.actor_type as ActorType;
    else errors.actor_type = 'Choose one of the listed kinds.';
  }
  if (shown.outcome) {
    if (shown.outcome === 'success' || shown.outcome === 'denied') filters.outcome = shown.outcome;
    else errors.outcome = 'Choose one of the listed outcomes.';
  }
  for (const [name, end] of [['from', 'T00:00:00.000Z'], ['to', 'T23:59:59.999Z']] as const) {
    const day = shown[name];
    if (!day) continue;
    const at = DAY.test(day) ? new Date(`${day}${end}`) : new Date(Number.NaN);
    if (Number.isNaN(at.getTime())) errors[name] = 'A day as YYYY-MM-DD.';
    else filters[name === 'from' ? 'dateFrom' : 'dateTo'] = at;
  }
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) errors.from = 'The first day is after the last.';
  const beforeId = shown.before_id && /^[1-9]\d{0,15}$/.test(shown.before_id) ? Number(shown.before_id) : undefined;
  if (shown.before_id && beforeId === undefined) errors.before_id = 'Not a page of this log.';
  return { shown, filters, beforeId, errors };
}

/** An action's details as a person reads them: `method: POST · route: /v2/api/widget/save · required: widgets:write`. */
const detailsText = (details: Record<string, unknown> | null) =>
  details ? Object.entries(details).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' · ') : '';

const withQuery = (path: string, params: Shown) => (Object.keys(params).length ? `${path}?${new URLSearchParams(params as Record<string, string>).toString()}` : path);

export const auditPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'audit', level: 'view' },
    path: '/settings/audit',
    // The filters are read by the handler, so a bad one is the page again with its message beside it.
    fromQuery: () => ({}),
    async handler(_input, { services, account, koa }) {
      const { shown, filters, beforeId, errors } = parseFilters(koa.query);
      const { before_id: _before, ...kept } = shown;
      const common = {
        title: 'Audit log',
        view: 'audit',
        styles: ['audit.css'],
        filters: shown,
        actorTypes: ACTOR_TYPES.map((type) => ({ type, selected: shown.actor_type === type })),
        retentionDays: services.config.auditRetentionDays,
        fieldErrors: errors,
      };
      if (Object.keys(errors).length) return page({ ...common, events: [], error: 'Some filters are not valid: see the messages beside them.' }, 400);
      const found = await listAuditEvents(services, account.id, filters, { perPage: ROWS, beforeId });
      return page({
        ...common,
        events: found.events.map(presentAuditEvent).map((e) => ({ ...e, denied: e.outcome === 'denied', detailsText: detailsText(e.details) })),
        filtered: Object.keys(kept).length > 0,
        older: found.nextBeforeId === null ? undefined : withQuery(BASE, { ...kept, before_id: String(found.nextBeforeId) }),
        newest: beforeId === undefined ? undefined : withQuery(BASE, kept),
        exportHref: withQuery(`${BASE}/export.csv`, kept),
      });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'audit', level: 'view' },
    path: '/settings/audit/export.csv',
    audit: 'audit.export',
    fromQuery: () => ({}),
    async handler(_input, { services, account, koa }) {
      const { shown, filters, errors } = parseFilters(koa.query);
      if (Object.keys(errors).length) return seeOther(withQuery(BASE, shown));
      const stamp = services.now().toISOString().slice(0, 10);
      return download(auditCsv(services, account.id, filters), 'text/csv; charset=utf-8', `audit-${stamp}.csv`);
    },
  }),
];
