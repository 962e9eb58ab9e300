// The console's reward pages: settings, spend rules, manual code uploads (a multipart file form), inventory and
// orders. The same services and presenters as the console API's rewards group (api/console/rewards/).
import Router from '@koa/router';
import type { Context } from 'koa';
import { CLAIM_STATUSES, FULFILLMENT_STATUSES, GIFT_SCOPES, PAYMENT_STATUSES, SPEND_PERIODS } from '../../../models/Gift.ts';
import { addCodes } from '../../../services/rewards/codes.ts';
import { rewardInventory } from '../../../services/rewards/inventory-view.ts';
import { toCents } from '../../../services/rewards/money.ts';
import { listOrders } from '../../../services/rewards/orders-list.ts';
import { rulesView } from '../../../services/rewards/rules-view.ts';
import { loadSettings, ruleChangeLoosens, setRule, updateSettings } from '../../../services/rewards/settings.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { presentInventory, presentOrder, presentRules, presentSettings } from '../../gift-cards/present.ts';
import { ListOrdersQuery, orderQueryOf } from '../../gift-cards/schema.ts';
import { parseInput } from '../../validation.ts';
import { RuleBody, SettingsBody } from '../rewards/schema.ts';
import { settingsChangeOf } from '../rewards/settings-change.ts';
import { codesOfUpload, readCodesUpload } from '../rewards/upload.ts';
import { checkOrigin } from '../session-cookie.ts';
import { paging, renderPage } from './render.ts';
import { checkFormCsrf, CONSOLE_PREFIX, filledQuery, pageForm, type PageSession, pageStepUp, seeOther, signedIn } from './router.ts';

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

/** The code upload form, with the CSRF check the urlencoded forms get (its token is a field of the multipart form). */
async function uploadForm(services: ApiServices, ctx: Context, page: PageSession): Promise<FormData> {
  checkOrigin(ctx, services.config.publicBaseUrl);
  const form = await readCodesUpload(ctx);
  checkFormCsrf(form.get('_csrf'), page);
  return form;
}

const options = (values: readonly string[], current: unknown) => values.map((value) => ({ value, selected: value === current }));

export function consoleRewardPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  router.get(
    '/rewards',
    signedIn(services, async (ctx, page) => {
      const [settings, rules, inventory] = await Promise.all([loadSettings(services, page.account.id), rulesView(services, page.account.id), rewardInventory(services, page.account.id)]);
      const shown = presentSettings(settings);
      renderPage(ctx, {
        title: 'Rewards',
        view: 'rewards',
        ...page,
        notice: noticeOf(ctx.query),
        settings: shown,
        providerModes: options(['manual', 'provider'], shown.provider_mode),
        rules: presentRules(rules),
        periods: SPEND_PERIODS,
        inventory: presentInventory(inventory),
      });
    }),
  );
  router.post(
    '/rewards/settings',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const body = parseInput(
        SettingsBody,
        {
          provider_mode: form.provider_mode || undefined,
          min_amount: numberField(form.min_amount),
          max_amount: numberField(form.max_amount),
          velocity_limits_enabled: form.velocity_limits_enabled === undefined || form.velocity_limits_enabled === '' ? undefined : form.velocity_limits_enabled === 'on',
          claim_expiry_days: numberField(form.claim_expiry_days),
        },
        'body',
      );
      // Step-up comes back to the page: the owner submits the form again.
      if (!pageStepUp(services, ctx, page, REWARDS)) return;
      await updateSettings(services, page.account.id, settingsChangeOf(body));
      seeOther(ctx, `${REWARDS}?done=settings`);
    }),
  );
  router.post(
    '/rewards/rules',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const body = parseInput(RuleBody, { period: form.period || undefined, limit: numberField(form.limit) }, 'body');
      const cents = toCents(body.limit);
      if ((await ruleChangeLoosens(services.models, page.account.id, body.period, cents)) && !pageStepUp(services, ctx, page, REWARDS)) return;
      await setRule(services.models, page.account.id, body.period, cents);
      seeOther(ctx, `${REWARDS}?done=${cents === 0 ? 'rule-removed' : 'rule'}`);
    }),
  );
  router.post(
    '/rewards/codes',
    signedIn(services, async (ctx, page) => {
      const body = await codesOfUpload(await uploadForm(services, ctx, page));
      const result = await addCodes(services, page.account.id, { brand: body.brand, denominationCents: toCents(body.denomination), text: body.text });
      const query = new URLSearchParams({
        done: 'codes',
        added: String(result.added),
        duplicates: String(result.duplicates),
        invalid: String(result.invalid_lines.length),
        lines: result.invalid_lines.slice(0, 20).join(','),
      });
      seeOther(ctx, `${REWARDS}?${query.toString()}`);
    }),
  );
  router.get(
    '/rewards/orders',
    signedIn(services, async (ctx, page) => {
      // A GET form sends every field: blank ones mean "any".
      const given = filledQuery(ctx.query);
      const query = parseInput(ListOrdersQuery, given, 'query');
      const { rows, count } = await listOrders(services.models, page.account.id, orderQueryOf(query));
      const link = (n: number) => `${REWARDS}/orders?${new URLSearchParams({ ...given, page: String(n) }).toString()}`;
      renderPage(ctx, {
        title: 'Gift orders',
        view: 'rewards-orders',
        ...page,
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
    }),
  );
  return router;
}
