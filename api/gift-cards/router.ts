// Reward (gift-card) endpoints: read-only for keys (settings, rules and codes change in the console and with
// `cardsvc rewards`): getSettings, listProducts, listOrders, getRules, rewardInventory, analytics.
import { giftAnalytics } from '../../services/rewards/analytics.ts';
import { listProducts } from '../../services/rewards/catalog.ts';
import { rewardInventory } from '../../services/rewards/inventory-view.ts';
import { listOrders } from '../../services/rewards/orders-list.ts';
import { rulesView } from '../../services/rewards/rules-view.ts';
import { loadSettings } from '../../services/rewards/settings.ts';
import { defineRoute } from '../http/route.ts';
import { pageMeta } from '../schema-helpers.ts';
import { presentAnalytics, presentInventory, presentOrder, presentProduct, presentRules, presentSettings } from './present.ts';
import { Analytics, GiftSettings, InventoryList, ListOrdersQuery, orderQueryOf, ListProductsQuery, OrderList, PageMeta, ProductList, Rules } from './schema.ts';

const tags = ['gift-cards'];
const view = { area: 'gift_cards', level: 'view' } as const;

export const giftCardRoutes = [
  defineRoute({
    method: 'get',
    path: '/gift-card/getSettings',
    summary: 'The reward configuration: provider mode, currency, per-card bounds, whether spend limits are enforced, claim expiry',
    tags,
    access: view,
    response: GiftSettings,
    async handler(_input, { services, caller }) {
      return presentSettings(await loadSettings(services, caller.account.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/gift-card/listProducts',
    summary: 'The products a gift can name: the manual pool’s (brand and face value, with codes left) or the provider’s catalog (country filters it)',
    tags,
    access: view,
    query: ListProductsQuery,
    response: ProductList,
    async handler({ query }, { services, caller }) {
      return (await listProducts(services, caller.account, query.country)).map(presentProduct);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/gift-card/listOrders',
    summary: 'Gift orders from widget, campaign and automation sends, newest first, paged; codes and claim links masked; ownerid or user_id → 400 account_from_key',
    tags,
    access: view,
    query: ListOrdersQuery,
    response: OrderList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await listOrders(services, caller.account.id, orderQueryOf(query));
      return { data: rows.map(presentOrder), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/gift-card/getRules',
    summary: 'Spend rules (day, week, month; UTC) with the current period’s use, read-only; use is recorded even when limits are not enforced',
    tags,
    access: view,
    response: Rules,
    async handler(_input, { services, caller }) {
      return presentRules(await rulesView(services, caller.account.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/gift-card/rewardInventory',
    summary: 'Manual codes by brand and denomination: available (not handed out, not expired) and assigned to orders',
    tags,
    access: view,
    response: InventoryList,
    async handler(_input, { services, caller }) {
      return presentInventory(await rewardInventory(services, caller.account.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/gift-card/analytics',
    summary: 'Order counts and face-value totals by payment, fulfillment and claim status and by scope; spend (paid − refunded) and claim rate',
    tags,
    access: view,
    response: Analytics,
    async handler(_input, { services, caller }) {
      return presentAnalytics(await giftAnalytics(services, caller.account.id));
    },
  }),
];
