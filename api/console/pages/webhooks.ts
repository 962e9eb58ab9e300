// The console's webhook pages: the ecard_shared URL, the signing secret (shown once, behind a step-up), endpoints
// (enable a paused one), the delivery log (the key API's filters as form GET fields, 50 rows a page), a delivery with
// every attempt and a replay button, a test send and member-change subscriptions. The same services and presenters as
// the console API's webhooks group (api/console/webhooks/router.ts); inputs go through the same schemas.
import Router from '@koa/router';
import type { Context } from 'koa';
import { findDelivery, listDeliveries, replayDelivery, sendTest } from '../../../services/webhooks/deliveries.ts';
import { ecardSharedEndpoint, enableEndpoint, listEndpoints, listSubscriptions, setEcardSharedUrl, unsubscribe } from '../../../services/webhooks/endpoints.ts';
import { shownSecret } from '../../../services/webhooks/secrets.ts';
import { DELIVERY_STATUSES } from '../../../models/WebhookDelivery.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { fromDigits } from '../../schema-helpers.ts';
import { parseInput } from '../../validation.ts';
import { presentDelivery, presentDeliveryDetail, presentEndpoint } from '../../webhooks/present.ts';
import { DeliveryListQuery, deliveryQueryOf, EcardSharedUrlBody, TestBody } from '../../webhooks/schema.ts';
import { IdParams } from '../webhooks/schema.ts';
import { paging, renderPage } from './render.ts';
import { CONSOLE_PREFIX, pageForm, pageStepUp, seeOther, signedIn } from './router.ts';

const BASE = `${CONSOLE_PREFIX}/webhooks`;
/** The delivery log's page size (the key API's own default is 20; the console shows 50). */
export const DELIVERY_PAGE_ROWS = 50;
const FILTERS = ['status', 'event_type', 'endpoint_id', 'dateFrom', 'dateTo'] as const;

const NOTICES: Record<string, string> = {
  url_saved: 'The ecard_shared URL is saved.',
  url_off: 'The ecard_shared webhook is off.',
  enabled: 'The endpoint is active again; its count of failed deliveries is reset.',
  replayed: 'The delivery is being sent again; its new attempt appears below when it ends.',
  tested: 'A sample event is on its way; its attempt appears below when it ends.',
  removed: 'The subscription is removed.',
};
const noticeOf = (ctx: Context) => NOTICES[String(ctx.query.done)] ?? undefined;

/** The filters as the form sent them: blank fields mean "any", so they are dropped before the key API's schema. */
function filledFilters(query: Context['query']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...FILTERS, 'page'] as const) {
    const value = query[name];
    if (typeof value === 'string' && value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

export function consoleWebhookPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: BASE });
  const { models } = services;

  router.get(
    '/',
    signedIn(services, async (ctx, session) => {
      const [shared, endpoints] = await Promise.all([ecardSharedEndpoint(models, session.account.id), listEndpoints(models, session.account.id)]);
      renderPage(ctx, {
        title: 'Webhooks',
        view: 'webhooks',
        ...session,
        notice: noticeOf(ctx),
        sharedUrl: shared?.url ?? '',
        endpoints: endpoints.map((e) => ({ ...presentEndpoint(e), paused: e.paused_at !== null })),
      });
    }),
  );
  router.post(
    '/ecard-shared-url',
    signedIn(services, async (ctx, session) => {
      const form = await pageForm(services, ctx, session);
      const body = parseInput(EcardSharedUrlBody, { url: form.url ?? '' }, 'body');
      const endpoint = await setEcardSharedUrl(services, session.account.id, body.url);
      seeOther(ctx, `${BASE}?done=${endpoint ? 'url_saved' : 'url_off'}`);
    }),
  );
  router.post(
    '/endpoints/:id/enable',
    signedIn(services, async (ctx, session) => {
      await pageForm(services, ctx, session);
      const { id } = parseInput(IdParams, ctx.params, 'path');
      await enableEndpoint(services, session.account.id, id);
      seeOther(ctx, `${BASE}?done=enabled`);
    }),
  );
  router.post(
    '/test',
    signedIn(services, async (ctx, session) => {
      const form = await pageForm(services, ctx, session);
      const body = parseInput(TestBody, form.endpoint_id ? { endpoint_id: fromDigits(form.endpoint_id) } : {}, 'body');
      const { delivery } = await sendTest(services, session.account.id, body.endpoint_id);
      seeOther(ctx, `${BASE}/deliveries/${delivery.id}?done=tested`);
    }),
  );

  // The signing secret: a show-once page (no-store) behind a step-up, as the console API's GET secret.
  router.get(
    '/secret',
    signedIn(services, async (ctx, session) => {
      if (!pageStepUp(services, ctx, session, `${BASE}/secret`)) return;
      const secret = await shownSecret(services, session.account.id, services.now(), false);
      renderPage(ctx, { title: 'Signing secret', view: 'webhook-secret', ...session, secret });
    }),
  );
  router.post(
    '/secret/rotate',
    signedIn(services, async (ctx, session) => {
      await pageForm(services, ctx, session);
      if (!pageStepUp(services, ctx, session, `${BASE}/secret`)) return;
      const secret = await shownSecret(services, session.account.id, services.now(), true);
      renderPage(ctx, { title: 'Signing secret', view: 'webhook-secret', ...session, secret, notice: 'A new signing secret: the previous one also signs for 24 hours.' });
    }),
  );

  router.get(
    '/deliveries',
    signedIn(services, async (ctx, session) => {
      const filled = filledFilters(ctx.query);
      const query = parseInput(DeliveryListQuery, { ...filled, perPage: String(DELIVERY_PAGE_ROWS) }, 'query');
      const [{ rows, count }, endpoints] = await Promise.all([
        listDeliveries(models, session.account.id, deliveryQueryOf(query)),
        listEndpoints(models, session.account.id),
      ]);
      const link = (n: number) => `${BASE}/deliveries?${new URLSearchParams({ ...filled, page: String(n) }).toString()}`;
      renderPage(ctx, {
        title: 'Webhook deliveries',
        view: 'webhook-deliveries',
        ...session,
        filters: filled,
        statuses: DELIVERY_STATUSES.map((s) => ({ value: s, selected: s === filled.status })),
        endpoints: endpoints.map((e) => ({ id: e.id, url: e.url, selected: String(e.id) === filled.endpoint_id })),
        deliveries: rows.map(({ delivery, url }) => presentDelivery(delivery, url)),
        ...paging(query.page, query.perPage, count, link),
      });
    }),
  );
  router.get(
    '/deliveries/:id',
    signedIn(services, async (ctx, session) => {
      const { id } = parseInput(IdParams, ctx.params, 'path');
      const detail = presentDeliveryDetail(await findDelivery(models, session.account.id, id));
      renderPage(ctx, {
        title: `Delivery ${detail.id}`,
        view: 'webhook-delivery',
        ...session,
        notice: noticeOf(ctx),
        delivery: detail,
        attempts: detail.attempt_log.map((a, i) => ({ ...a, number: i + 1, headers: Object.entries(a.request_headers).map(([name, value]) => ({ name, value })) })),
        finished: detail.status === 'Delivered' || detail.status === 'Failed',
      });
    }),
  );
  router.post(
    '/deliveries/:id/replay',
    signedIn(services, async (ctx, session) => {
      await pageForm(services, ctx, session);
      const { id } = parseInput(IdParams, ctx.params, 'path');
      await replayDelivery(services, session.account.id, id);
      seeOther(ctx, `${BASE}/deliveries/${id}?done=replayed`);
    }),
  );

  router.get(
    '/subscriptions',
    signedIn(services, async (ctx, session) => {
      const subscriptions = await listSubscriptions(models, session.account.id);
      renderPage(ctx, { title: 'Webhook subscriptions', view: 'webhook-subscriptions', ...session, notice: noticeOf(ctx), subscriptions: subscriptions.map(presentEndpoint) });
    }),
  );
  router.post(
    '/subscriptions/:id/remove',
    signedIn(services, async (ctx, session) => {
      await pageForm(services, ctx, session);
      const { id } = parseInput(IdParams, ctx.params, 'path');
      await unsubscribe(services, session.account.id, id);
      seeOther(ctx, `${BASE}/subscriptions?done=removed`);
    }),
  );
  return router;
}
