// The console's reward endpoints: settings and spend rules (read as the key API answers them, and changed here),
// manual code uploads, inventory and orders. Every one calls the services the key API and `cardsvc rewards` use.
import { addCodes } from '../../../services/rewards/codes.ts';
import { rewardInventory } from '../../../services/rewards/inventory-view.ts';
import { toCents } from '../../../services/rewards/money.ts';
import { listOrders } from '../../../services/rewards/orders-list.ts';
import { rulesView } from '../../../services/rewards/rules-view.ts';
import { loadSettings, ruleChangeLoosens, setRule, updateSettings } from '../../../services/rewards/settings.ts';
import { readJsonBody } from '../../http/body.ts';
import { presentInventory, presentOrder, presentRules, presentSettings } from '../../gift-cards/present.ts';
import { GiftSettings, InventoryList, ListOrdersQuery, orderQueryOf, OrderList, PageMeta, Rules } from '../../gift-cards/schema.ts';
import { pageMeta } from '../../schema-helpers.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { CodesBody, CodesResult, RuleBody, SettingsBody } from './schema.ts';
import { settingsChangeOf } from './settings-change.ts';
import { codesOfUpload, isUpload, readCodesUpload } from './upload.ts';

export const consoleRewardRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'gift_cards', level: 'view' },
    path: '/rewards/settings',
    summary: 'The reward settings, as the key API’s getSettings answers them',
    response: GiftSettings,
    async handler(_input, { services, account }) {
      return presentSettings(await loadSettings(services, account.id));
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'gift_cards', level: 'manage' },
    path: '/rewards/settings',
    audit: 'gift_cards.settings',
    summary: 'Changes the reward settings (each field optional); min ≤ max',
    body: SettingsBody,
    response: GiftSettings,
    access: { stepUp: 'Changing the reward settings' },
    async handler({ body }, { services, account }) {
      return presentSettings(await updateSettings(services, account.id, settingsChangeOf(body)));
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'gift_cards', level: 'view' },
    path: '/rewards/rules',
    summary: 'Spend rules with the current period’s use, as the key API’s getRules answers them',
    response: Rules,
    async handler(_input, { services, account }) {
      return presentRules(await rulesView(services, account.id));
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'gift_cards', level: 'manage' },
    path: '/rewards/rules',
    audit: 'gift_cards.rules',
    summary: 'Sets the spend limit of a period (day, week, month); 0 removes the rule',
    body: RuleBody,
    response: Rules,
    async handler({ body }, { services, account, requireStepUp }) {
      if (await ruleChangeLoosens(services, account.id, body.period, toCents(body.limit))) requireStepUp({ action: 'Raising or removing a spend limit' });
      await setRule(services, account.id, body.period, toCents(body.limit));
      return presentRules(await rulesView(services, account.id));
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'gift_cards', level: 'manage' },
    path: '/rewards/codes',
    audit: 'gift_cards.upload_codes',
    summary: 'Adds manual codes (a multipart file, or JSON with the file’s text) to the pool of a brand and denomination; duplicates are skipped',
    body: CodesBody,
    response: CodesResult,
    // JSON holds the file's text: room for the 4 MiB the schema allows, escaped. An upload has its own limit.
    bodyLimitBytes: 10 * 1024 * 1024,
    readBody: async (koa, limit) => (isUpload(koa) ? codesOfUpload(await readCodesUpload(koa)) : readJsonBody(koa, limit)),
    async handler({ body }, { services, account }) {
      return { ...(await addCodes(services, account.id, { brand: body.brand, denominationCents: toCents(body.denomination), text: body.text })) };
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'gift_cards', level: 'view' },
    path: '/rewards/inventory',
    summary: 'Manual codes by brand and denomination, as the key API’s rewardInventory answers them',
    response: InventoryList,
    async handler(_input, { services, account }) {
      return presentInventory(await rewardInventory(services, account.id));
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'gift_cards', level: 'view' },
    path: '/rewards/orders',
    summary: 'Gift orders, newest first, paged and filtered as the key API’s listOrders; codes and claim links masked',
    query: ListOrdersQuery,
    response: OrderList,
    meta: PageMeta,
    async handler({ query }, { services, account }) {
      const { rows, count } = await listOrders(services, account.id, orderQueryOf(query));
      return { data: rows.map(presentOrder), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
];
