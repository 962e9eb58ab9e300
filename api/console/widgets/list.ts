// The widget list: each widget with its eCards, its sends this month and whether it is public; create (a name,
// then its eCards tab), copy (with `limit`: its first eCards only), paging. The key API's services.
import type { Context } from 'koa';
import { z } from 'zod';
import { widgetCounts } from '../../../services/widgets/admin/console-counts.ts';
import { copyWidget, saveWidget, searchWidgets } from '../../../services/widgets/admin/widgets.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { parseInput } from '../../http/validation.ts';
import { WidgetIdParams } from '../../widgets/schema.ts';
import { formError, type Form } from './form.ts';
import { noticeOf, WIDGETS, widgetOf, widgetPath } from './page.ts';
import { paging } from '../kit/render.ts';
import type { SessionContext } from '../../http/route.ts';

/** Widgets on one page of the list. */
export const WIDGET_LIST_ROWS = 20;

const ListQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });
const CreateBody = z.object({ name: z.string().trim().min(1, 'name is required').max(200) });
const CopyBody = z.object({ limit: z.number().int().positive().optional() });

async function listPage(context: SessionContext, koa: Context, pageNumber: number, failure?: { message: string; status: number; form: Form }): Promise<PageResult> {
  const { services, account } = context;
  const { rows, count } = await searchWidgets(services, account.id, { page: pageNumber, perPage: WIDGET_LIST_ROWS, sortBy: 'createdat', sortOrder: 'desc' });
  const counts = await widgetCounts(services, account.id, rows.map((w) => w.id), services.now());
  const data = {
    title: 'Widgets',
    view: 'widgets',
    styles: ['widget-pages.css'],
    notice: failure ? undefined : noticeOf(koa),
    error: failure?.message,
    typed: failure?.form ?? {},
    widgets: rows.map((w) => ({ id: w.id, name: w.name, public: Boolean(w.public_share_enabled), ...counts.get(w.id)! })),
    ...paging(pageNumber, WIDGET_LIST_ROWS, count, (n) => `${WIDGETS}?page=${n}`),
  };
  return page(data, failure?.status);
}

export const widgetListRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets',
    query: ListQuery,
    async handler({ query }, context) {
      return listPage(context, context.koa, query.page);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets',
    audit: 'widgets.create',
    async handler({ form }, context) {
      try {
        const { name } = parseInput(CreateBody, { name: form.name ?? '' }, 'body');
        const widget = await saveWidget(context.services, context.account.id, { id: undefined, widget: { name, wconfig: {} }, prices: undefined, token: undefined });
        return seeOther(`${widgetPath(widget.id, 'ecards')}?done=created`);
      } catch (err) {
        return listPage(context, context.koa, 1, { ...formError(err), form });
      }
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets/:id',
    params: WidgetIdParams,
    async handler({ params }, { services, account }) {
      const widget = await widgetOf(services, account.id, params.id);
      return seeOther(widgetPath(widget.id, 'ecards'));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/copy',
    audit: 'widgets.copy',
    params: WidgetIdParams,
    async handler({ params, form }, context) {
      await widgetOf(context.services, context.account.id, params.id);
      try {
        const { limit } = parseInput(CopyBody, form.limit && form.limit.trim() !== '' ? { limit: /^\d+$/.test(form.limit.trim()) ? Number(form.limit.trim()) : form.limit } : {}, 'body');
        await copyWidget(context.services, context.account.id, params.id, limit);
        return seeOther(`${WIDGETS}?done=copied`);
      } catch (err) {
        return listPage(context, context.koa, 1, { ...formError(err), form });
      }
    },
  }),
];
