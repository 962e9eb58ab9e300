// The console's reward pages: settings, spend rules, manual code uploads (a multipart file form), inventory and
// orders. The same services and presenters as the console API's rewards group (api/console/rewards/).
import type { Context } from 'koa';
import { CLAIM_STATUSES, FULFILLMENT_STATUSES, GIFT_SCOPES, PAYMENT_STATUSES, SPEND_PERIODS } from '../../../models/Gift.ts';
import { addCodes } from '../../../services/rewards/codes.ts';
import { rewardInventory } from '../../../services/rewards/inventory-view.ts';
import { toCents } from '../../../services/rewards/money.ts';
import { listOrders } from '../../../services/rewards/orders-list.ts';
import { rulesView } from '../../../services/rewards/rules-view.ts';
import { loadSettings, ruleChangeLoosens, setRule, updateSettings } from '../../../services/rewards/settings.ts';
import { presentInventory, presentOrder, presentRules, presentSettings } from '../../gift-cards/present.ts';
import { ListOrdersQuery, orderQueryOf } from '../../gift-cards/schema.ts';
import { filledQuery } from '../../http/validation.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { RuleBody, SettingsBody } from './schema.ts';
import { settingsChangeOf } from './settings-change.ts';
import { codesOfUpload, readCodesUpload } from './upload.ts';
import { paging } from '../kit/render.ts';

const REWARDS = `${CONSOLE_PREFIX}/rewards`;

/** A form's number field: absent or blank is undefined; anything else must be a number (zod names the field). */
const numberField = (value: string | undefined): number | undefined => (value === undefined || value.trim() === '' ? undefined : Number(value));

function noticeOf(query: Context['query']): string | undefined {
  switch (query.done) {
    case 'settings':
      return 'The settings are saved.';
    case 'rule':
      return 'The spend rule is saved.';
    case 'rule-removed':
      return 'The spend rule is removed.';
    case 'codes': {
      const lines = typeof query.lines === 'string' && query.lines !== '' ? query.lines.split(',').join(', ') : '';
      const invalid = Number(query.invalid ?? 0);
      const more = invalid > 20 ? ` (the first 20 of ${invalid})` : '';
      return `Codes uploaded: ${Number(query.added ?? 0)} added, ${Number(query.duplicates ?? 0)} duplicates skipped, ${invalid} invalid lines${lines ? `: ${lines}${more}` : ''}.`;
    }
    default:
      return undefined;
  }
}

const options = (values: readonly string[], current: unknown) => values.map((value) => ({ value, selected: value === current }));

export const rewardPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'gift_cards', level: 'view' },
    path: '/rewards',
    async handler(_input, { services, account, koa }) {
      const [settings, rules, inventory] = await Promise.all([loadSettings(services, account.id), rulesView(services, account.id), rewardInventory(services, account.id)]);
      const shown = presentSettings(settings);
      return page({
        title: 'Rewards',
        view: 'rewards',
        notice: noticeOf(koa.query),
        settings: shown,
        providerModes: options(['manual', 'provider'], shown.provider_mode),
        rules: presentRules(rules),
        periods: SPEND_PERIODS,
        inventory: presentInventory(inventory),
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'gift_cards', level: 'manage' },
    path: '/rewards/settings',
    audit: 'gift_cards.settings',
    body: SettingsBody,
    fromForm: (form) => ({
      provider_mode: form.provider_mode || undefined,
      min_amount: numberField(form.min_amount),
      max_amount: numberField(form.max_amount),
      velocity_limits_enabled: form.velocity_limits_enabled === undefined || form.velocity_limits_enabled === '' ? undefined : form.velocity_limits_enabled === 'on',
      claim_expiry_days: numberField(form.claim_expiry_days),
    }),
    // Step-up comes back to the page: the owner submits the form again.
    access: { stepUp: 'Changing the reward settings', back: REWARDS },
    async handler({ body }, { services, account }) {
      await updateSettings(services, account.id, settingsChangeOf(body));
      return seeOther(`${REWARDS}?done=settings`);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'gift_cards', level: 'manage' },
    path: '/rewards/rules',
    audit: 'gift_cards.rules',
    body: RuleBody,
    fromForm: (form) => ({ period: form.period || undefined, limit: numberField(form.limit) }),
    async handler({ body }, { services, account, requireStepUp }) {
      const cents = toCents(body.limit);
      if (await ruleChangeLoosens(services, account.id, body.period, cents)) requireStepUp({ action: 'Raising or removing a spend limit', back: REWARDS });
      await setRule(services, account.id, body.period, cents);
      return seeOther(`${REWARDS}?done=${cents === 0 ? 'rule-removed' : 'rule'}`);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'gift_cards', level: 'manage' },
    path: '/rewards/codes',
    audit: 'gift_cards.upload_codes',
    // A multipart form: its CSRF token is one of its fields, checked as the urlencoded forms' are.
    readBody: (koa) => readCodesUpload(koa),
    async handler({ raw }, { services, account }) {
      const body = await codesOfUpload(raw as FormData);
      const result = await addCodes(services, account.id, { brand: body.brand, denominationCents: toCents(body.denomination), text: body.text });
      const query = new URLSearchParams({
        done: 'codes',
        added: String(result.added),
        duplicates: String(result.duplicates),
        invalid: String(result.invalid_lines.length),
        lines: result.invalid_lines.slice(0, 20).join(','),
      });
      return seeOther(`${REWARDS}?${query.toString()}`);
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'gift_cards', level: 'view' },
    path: '/rewards/orders',
    // A GET form sends every field: blank ones mean "any" (the kit drops them before the schema).
    query: ListOrdersQuery,
    async handler({ query }, { services, account, koa }) {
      const given = filledQuery(koa.query);
      const { rows, count } = await listOrders(services, account.id, orderQueryOf(query));
      const link = (n: number) => `${REWARDS}/orders?${new URLSearchParams({ ...given, page: String(n) }).toString()}`;
      return page({
        title: 'Gift orders',
        view: 'rewards-orders',
        orders: rows.map(presentOrder),
        ...paging(query.page, query.perPage, count, link),
        filters: {
          payment: options(PAYMENT_STATUSES, query.payment_status),
          fulfillment: options(FULFILLMENT_STATUSES, query.fulfillment_status),
          claim: options(CLAIM_STATUSES, query.claim_status),
          scope: options(GIFT_SCOPES, query.scope),
          campaign_id: given.campaign_id ?? '',
          automation_id: given.automation_id ?? '',
          dateFrom: given.dateFrom ?? '',
          dateTo: given.dateTo ?? '',
          perPage: query.perPage,
        },
      });
    },
  }),
];
