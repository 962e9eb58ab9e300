// Widget endpoints: search, findOne, save, deleteWidgets, copyWidgetWithEcards.
import { copyWidget, deleteWidgets, findWidget, saveWidget, searchWidgets, widgetView, widgetViews } from '../../services/widgets/admin/widgets.ts';
import { defineRoute } from '../http/route.ts';
import { pageMeta } from '../schema-helpers.ts';
import { presentWidget } from './present.ts';
import { CopyWidgetBody, Deleted, DeleteWidgetsBody, PageMeta, SaveWidgetBody, SearchWidgetsQuery, Widget, WidgetIdParams, WidgetList } from './schema.ts';

const tags = ['widgets'];
const view = { area: 'widgets', level: 'view' } as const;
const manage = { area: 'widgets', level: 'manage' } as const;

export const widgetRoutes = [
  defineRoute({
    method: 'get',
    path: '/widget/search',
    summary: 'Widgets of the account, paged (campaign widgets are not listed)',
    tags,
    access: view,
    query: SearchWidgetsQuery,
    response: WidgetList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await searchWidgets(services, caller.account.id, query);
      return { data: (await widgetViews(services, rows)).map(presentWidget), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/widget/findOne/id/:id',
    summary: 'One widget with its parsed wconfig',
    tags,
    access: view,
    params: WidgetIdParams,
    response: Widget,
    async handler({ params }, { services, caller }) {
      return presentWidget(await widgetView(services, await findWidget(services, caller.account.id, params.id)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/widget/save',
    audit: 'widgets.save',
    summary: 'Creates (id 0) or updates a widget; fields not sent keep their value',
    tags,
    access: manage,
    body: SaveWidgetBody,
    response: Widget,
    async handler({ body }, { services, caller }) {
      const { id, ...widget } = body.widget;
      const saved = await saveWidget(services, caller.account.id, {
        id,
        widget,
        prices: body.ecardPrices,
        token: body.otp_confirmation_token,
      });
      return presentWidget(await widgetView(services, saved));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/widget/deleteWidgets',
    audit: 'widgets.delete',
    summary: 'Deletes widgets with their eCards (all or nothing); a widget in use needs its otp_confirmation_token',
    tags,
    access: manage,
    body: DeleteWidgetsBody,
    response: Deleted,
    async handler({ body }, { services, caller }) {
      return { deleted: await deleteWidgets(services, caller.account.id, body.widgetids, body.otp_confirmation_token) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/widget/copyWidgetWithEcards',
    audit: 'widgets.copy',
    summary: 'Copies a widget as "Copy - <name>" with its first `limit` eCards (default all)',
    tags,
    access: manage,
    body: CopyWidgetBody,
    response: Widget,
    async handler({ body }, { services, caller }) {
      const copy = await copyWidget(services, caller.account.id, body.widgetid, body.limit);
      return presentWidget(await widgetView(services, copy));
    },
  }),
];
