// The console's eCards list: every eCard of the account, filtered by widget, and bulk update of one field.
import { ApiError } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { listBrands } from '../../../services/brands/brands.ts';
import { bulkUpdateEcards, searchEcards, type Ecard } from '../../../services/ecards/records.ts';
import { ownMediaFile } from '../../../services/media.ts';
import { thumbImageOf } from '../../../services/widgets/public/thumbs.ts';
import { searchWidgets } from '../../../services/widgets/admin/widgets.ts';
import type { ApiServices } from '../../context.ts';
import { SearchEcardsQuery } from '../../ecards/schema.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { parseInput } from '../../http/validation.ts';
import { BULK_CHOICES, BULK_FIELD_KINDS, bulkUpdateOf, readBulkBody } from './bulk.ts';
import { paging } from '../kit/render.ts';

const BASE = `${CONSOLE_PREFIX}/ecards`;
const LIST_ROWS = 24;
/** Widgets a list names (its filter and each row): far more than an account keeps. */
const WIDGETS_SHOWN = 1000;

/** The list's filters as its GET form (and the bulk form's hidden copies) send them; blank means "any". */
interface Filters {
  widgetid?: string | undefined;
  keyword?: string | undefined;
  page?: string | undefined;
}
const filled = (filters: Filters): Record<string, string> =>
  Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== '').map(([k, v]) => [k, v.trim()]));
const listUrl = (filters: Record<string, string>, extra: Record<string, string> = {}) => {
  const query = new URLSearchParams({ ...filters, ...extra }).toString();
  return query ? `${BASE}?${query}` : BASE;
};

/** Where an eCard stands for its recipients: hidden by hand, waiting for its publish date, past its expiry, or live. */
function stateOf(ecard: Ecard, now: Date): { label: string; live: boolean } {
  if (ecard.disabled) return { label: 'Hidden', live: false };
  if (ecard.publish_on && ecard.publish_on > now) return { label: `Scheduled from ${ecard.publish_on.toISOString().slice(0, 10)}`, live: false };
  if (ecard.expire_on && ecard.expire_on <= now) return { label: 'Expired', live: false };
  return { label: 'Published', live: true };
}

async function listPage(services: ApiServices, account: Account, filters: Filters, extra: { notice?: string; error?: string; status?: number; form?: Record<string, string> } = {}): Promise<PageResult> {
  const given = filled(filters);
  const query = parseInput(SearchEcardsQuery, { widgetID: given.widgetid, keyword: given.keyword, page: given.page, perPage: String(LIST_ROWS) }, 'query');
  const now = services.now();
  const base = services.config.publicBaseUrl;
  const [{ rows, count }, widgets, brands] = await Promise.all([
    searchEcards(services, account.id, now, { ...query, sortBy: 'name', sortOrder: 'asc', filterByDate: 'any-time', includeCampaign: false }),
    searchWidgets(services, account.id, { page: 1, perPage: WIDGETS_SHOWN, sortBy: 'name', sortOrder: 'asc' }),
    listBrands(services, account.id, { page: 1, perPage: 100, sortBy: 'name', sortOrder: 'asc' }),
  ]);
  const widgetName = new Map(widgets.rows.map((w) => [w.id, w.name]));
  const form = extra.form ?? {};
  const ticked = new Set((form.ecardids ?? '').split(','));
  const fieldName = form.fieldName ?? 'disabled';
  return page(
    {
      title: 'eCards',
      view: 'ecards',
      styles: ['ecard-list.css'],
      scripts: ['ecard-list.js'],
      notice: extra.notice,
      error: extra.error,
      filters: { ...given, widgetid: given.widgetid ?? '', keyword: given.keyword ?? '', page: given.page ?? '' },
      widgets: widgets.rows.map((w) => ({ id: w.id, name: w.name, selected: String(w.id) === given.widgetid })),
      total: count,
      ecards: rows.map((e) => {
        const thumb = thumbImageOf(base, e);
        return {
          id: e.id,
          name: e.name,
          widgetId: e.widget_id,
          widget: widgetName.get(e.widget_id) ?? `Widget ${e.widget_id}`,
          // The console's CSP loads images from itself alone: artwork hosted elsewhere shows as a placeholder.
          thumb: thumb && ownMediaFile(base, thumb) ? thumb : undefined,
          alt: e.thumbnail_alt_label ?? '',
          state: stateOf(e, now),
          checked: ticked.has(String(e.id)),
        };
      }),
      fields: Object.entries(BULK_FIELD_KINDS).map(([name, { label, kind }]) => ({ name, label, kind, selected: name === fieldName })),
      values: { flag: form.value_flag ?? 'yes', text: form.value_text ?? '', mode: form.value_mode ?? '', theme: form.value_theme ?? '', brand: form.value_brand ?? '' },
      modes: BULK_CHOICES.mode.map((value) => ({ value, selected: value === form.value_mode })),
      themes: BULK_CHOICES.theme.map((value) => ({ value, selected: value === form.value_theme })),
      brands: brands.rows.map((b) => ({ id: b.id, name: b.name, is_default: b.is_default, selected: String(b.id) === form.value_brand })),
      ...paging(query.page, LIST_ROWS, count, (n) => listUrl({ ...given, page: String(n) })),
    },
    extra.status,
  );
}

export const ecardListPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'ecards', level: 'view' },
    path: '/ecards',
    async handler(_input, { services, account, koa }) {
      const q = koa.query;
      const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const notice = q.done === 'updated' ? `Updated ${Number(q.n ?? 0)} eCard${Number(q.n) === 1 ? '' : 's'}.` : undefined;
      return listPage(services, account, { widgetid: text(q.widgetid), keyword: text(q.keyword), page: text(q.page) }, notice ? { notice } : {});
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'ecards', level: 'manage' },
    path: '/ecards/bulk',
    audit: 'ecards.bulk_update',
    // Every ticked checkbox is an `ecardids` field: read them all (the standard form reader keeps the last).
    readBody: readBulkBody,
    async handler({ form }, { services, account }) {
      const filters = { widgetid: form.widgetid, keyword: form.keyword, page: form.page };
      let update: ReturnType<typeof bulkUpdateOf>;
      try {
        update = bulkUpdateOf(form);
      } catch (err) {
        // A value the field refuses, or nothing ticked: the list again, the choice kept, with the reason.
        if (!(err instanceof ApiError) || err.status >= 500) throw err;
        return listPage(services, account, filters, { error: err.message, status: err.status, form });
      }
      // Another account's eCard (or brand as the value) is a 404 before anything changes (all or nothing).
      const updated = await bulkUpdateEcards(services, account.id, { ecardids: update.ecardids }, update.field, update.value);
      return seeOther(listUrl(filled(filters), { done: 'updated', n: String(updated) }));
    },
  }),
];
