// The widget page's eCards tab: the grid of the widget's eCards in display order (thumbnail, name, hidden badge,
// price, actions) and its order form (a position per eCard without JavaScript; widget-grid.js drags and posts the
// same route). The per-eCard actions (copy, hide/show, price, delete) are in widget-ecard-actions.ts.
import { z } from 'zod';
import { ApiError, invalidParameter, notFound } from '../../../lib/errors.ts';
import { priceOf, saveOrder, searchEcards, type Ecard } from '../../../services/ecards/records.ts';
import { thumbImageOf } from '../../../services/widgets/public/thumbs.ts';
import { assertEditable, findWidget, searchWidgets, type Widget } from '../../../services/widgets/admin/widgets.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { definePage, page, seeOther, type AnyRoute } from '../../http/route.ts';
import { numericId, resource } from '../../schema-helpers.ts';
import { gridOf, widgetEcardActionRoutes } from './ecard-actions.ts';

const WidgetIdParams = z.object({ id: resource('widget', numericId()) });

const NOTICES: Record<string, string> = {
  'order-saved': 'Order saved.',
  copied: 'The copy is at the end of the grid.',
  'copied-elsewhere': 'The copy is at the end of the other widget’s eCards.',
  hidden: 'The eCard is hidden: the widget no longer shows it.',
  shown: 'The eCard is shown in the widget again.',
  'price-set': 'Price saved.',
  'price-removed': 'The price is removed: the eCard is free.',
  deleted: 'The eCard is deleted. Cards already sent with it still open as they were sent.',
};

/** The widget's eCards in display order (all of them: a widget holds at most the configured cap). */
export async function ecardsOf(services: ServiceContext, accountId: number, widgetId: number): Promise<Ecard[]> {
  const perPage = services.config.limits.ecardsPerWidget;
  const { rows } = await searchEcards(services, accountId, services.now(), {
    page: 1, perPage, widgetID: widgetId, ecardIDs: [], filterByDate: 'any-time', sortBy: 'displayorder', includeCampaign: true,
  });
  return rows;
}

/** A price as owners read it: two decimals. */
const shownPrice = (price: number | null) => (price === null ? null : price.toFixed(2));

/** One card of the grid as the view shows it. */
function cardOf(ecard: Ecard, position: number, publicBaseUrl: string) {
  const price = priceOf(ecard);
  return {
    id: ecard.id,
    name: ecard.name,
    position,
    hidden: Boolean(ecard.disabled),
    thumb: thumbImageOf(publicBaseUrl, ecard),
    initial: ecard.name.trim().charAt(0).toUpperCase() || '?',
    price: shownPrice(price),
    priceValue: price === null ? '' : shownPrice(price),
  };
}

/** The account's other editable widgets, for "copy into". */
async function otherWidgets(services: ServiceContext, accountId: number, widget: Widget) {
  const { rows } = await searchWidgets(services, accountId, { page: 1, perPage: 200, sortBy: 'name', sortOrder: 'asc' });
  return rows.filter((w) => w.id !== widget.id).map((w) => ({ id: w.id, name: w.name }));
}

/**
 * The eCard ids in their new order: the `order` field (the script's, ids comma-separated) or one `pos_<id>`
 * position per eCard (the form's), sorted by position. Every id must be one of
 * the widget's eCards (another is a 404, as any foreign id).
 */
export function newOrder(form: Record<string, string>, current: number[]): number[] {
  const known = (id: number) => {
    if (!current.includes(id)) throw notFound(`No eCard with id ${id} in this widget`);
    return id;
  };
  if (typeof form.order === 'string') {
    const ids = form.order.split(',').filter((s) => s.trim() !== '').map((s) => {
      if (!/^\s*\d+\s*$/.test(s)) throw invalidParameter('order: expected eCard ids separated by commas');
      return known(Number(s));
    });
    if (new Set(ids).size !== ids.length) throw invalidParameter('order lists an eCard more than once');
    return ids;
  }
  const positions = Object.entries(form)
    .filter(([name]) => name.startsWith('pos_'))
    .map(([name, value]) => {
      if (!/^\d+$/.test(name.slice(4))) throw invalidParameter(`${name}: not an eCard's position field`);
      const id = known(Number(name.slice(4)));
      if (!/^\s*-?\d+\s*$/.test(value)) throw invalidParameter(`Position of eCard ${id}: expected a whole number, got “${value}”`);
      return { id, position: Number(value), was: current.indexOf(id) };
    });
  if (positions.length === 0) throw invalidParameter('Give each eCard a position');
  // On a tie the card given a new position goes first (typing 1 on the third card makes it the first), then the
  // current order.
  const moved = (p: { position: number; was: number }) => (p.position === p.was + 1 ? 1 : 0);
  return positions.sort((a, b) => a.position - b.position || moved(a) - moved(b) || a.was - b.was).map((p) => p.id);
}

export const widgetEcardPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets/:id/ecards',
    params: WidgetIdParams,
    async handler({ params }, { services, account, koa }) {
      const widget = await findWidget(services, account.id, params.id);
      const tabs = { widget: { id: widget.id, name: widget.name }, tab: 'ecards' };
      let locked: string | undefined;
      try {
        assertEditable(widget);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        locked = err.message;
      }
      if (locked) return page({ title: widget.name, view: 'widget-ecards', ...tabs, error: locked, locked: true });
      const [ecards, widgets] = await Promise.all([ecardsOf(services, account.id, widget.id), otherWidgets(services, account.id, widget)]);
      return page({
        title: widget.name,
        view: 'widget-ecards',
        styles: ['widget-grid.css'],
        scripts: ['widget-grid.js'],
        ...tabs,
        notice: typeof koa.query.done === 'string' ? NOTICES[koa.query.done] : undefined,
        cards: ecards.map((e, i) => cardOf(e, i + 1, services.config.publicBaseUrl)),
        count: ecards.length,
        widgets,
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/ecards/order',
    audit: 'ecards.reorder',
    params: WidgetIdParams,
    async handler({ params, form }, { services, account }) {
      const widget = await findWidget(services, account.id, params.id);
      assertEditable(widget);
      const current = (await ecardsOf(services, account.id, widget.id)).map((e) => e.id);
      const order = newOrder(form, current);
      if (order.length) await saveOrder(services, account.id, order);
      return seeOther(gridOf(widget.id, 'order-saved'));
    },
  }),
  ...widgetEcardActionRoutes,
];
