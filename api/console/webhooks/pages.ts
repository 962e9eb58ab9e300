// The console's webhook pages: the ecard_shared URL, the signing secret (shown once, behind a step-up), endpoints
// (enable a paused one), the delivery log (the key API's filters as form GET fields, 50 rows a page), a delivery with
// every attempt and a replay button, a test send and member-change subscriptions. The same services and presenters as
// the console API's webhooks group (api/console/webhooks/router.ts); inputs go through the same schemas.
import type { Context } from 'koa';
import { findDelivery, listDeliveries, replayDelivery, sendTest } from '../../../services/webhooks/deliveries.ts';
import { ecardSharedEndpoint, enableEndpoint, listEndpoints, listSubscriptions, setEcardSharedUrl, unsubscribe } from '../../../services/webhooks/endpoints.ts';
import { shownSecret } from '../../../services/webhooks/secrets.ts';
import { DELIVERY_STATUSES } from '../../../models/WebhookDelivery.ts';
import { fromDigits } from '../../schema-helpers.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { presentDelivery, presentDeliveryDetail, presentEndpoint } from '../../webhooks/present.ts';
import { DeliveryListQuery, deliveryQueryOf, EcardSharedUrlBody, TestBody } from '../../webhooks/schema.ts';
import { IdParams } from './schema.ts';
import { paging } from '../kit/render.ts';

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

export const webhookPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/webhooks',
    async handler(_input, { services, account, koa }) {
      const [shared, endpoints] = await Promise.all([ecardSharedEndpoint(services, account.id), listEndpoints(services, account.id)]);
      return page({
        title: 'Webhooks',
        view: 'webhooks',
        notice: noticeOf(koa),
        sharedUrl: shared?.url ?? '',
        endpoints: endpoints.map((e) => ({ ...presentEndpoint(e), paused: e.paused_at !== null })),
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/ecard-shared-url',
    audit: 'webhooks.set_url',
    body: EcardSharedUrlBody,
    fromForm: (form) => ({ url: form.url ?? '' }),
    async handler({ body }, { services, account }) {
      const endpoint = await setEcardSharedUrl(services, account.id, body.url);
      return seeOther(`${BASE}?done=${endpoint ? 'url_saved' : 'url_off'}`);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/endpoints/:id/enable',
    audit: 'webhooks.enable_endpoint',
    params: IdParams,
    async handler({ params }, { services, account }) {
      await enableEndpoint(services, account.id, params.id);
      return seeOther(`${BASE}?done=enabled`);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/test',
    audit: 'webhooks.test',
    body: TestBody,
    fromForm: (form) => (form.endpoint_id ? { endpoint_id: fromDigits(form.endpoint_id) } : {}),
    async handler({ body }, { services, account }) {
      const { delivery } = await sendTest(services, account.id, body.endpoint_id);
      return seeOther(`${BASE}/deliveries/${delivery.id}?done=tested`);
    },
  }),

  // The signing secret: a show-once page (no-store) behind a step-up, as the console API's GET secret.
  definePage({
    method: 'get',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/secret',
    audit: 'webhooks.reveal_secret',
    access: { stepUp: 'Revealing the signing secret', back: `${BASE}/secret` },
    async handler(_input, { services, account }) {
      const secret = await shownSecret(services, account.id, services.now(), false);
      return page({ title: 'Signing secret', view: 'webhook-secret', secret });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/secret/rotate',
    audit: 'webhooks.rotate_secret',
    access: { stepUp: 'Rotating the signing secret', back: `${BASE}/secret` },
    async handler(_input, { services, account }) {
      const secret = await shownSecret(services, account.id, services.now(), true);
      return page({ title: 'Signing secret', view: 'webhook-secret', secret, notice: 'A new signing secret: the previous one also signs for 24 hours.' });
    },
  }),

  definePage({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/webhooks/deliveries',
    fromQuery: (query) => ({ ...filledFilters(query), perPage: String(DELIVERY_PAGE_ROWS) }),
    query: DeliveryListQuery,
    async handler({ query }, { services, account, koa }) {
      const filled = filledFilters(koa.query);
      const [{ rows, count }, endpoints] = await Promise.all([listDeliveries(services, account.id, deliveryQueryOf(query)), listEndpoints(services, account.id)]);
      const link = (n: number) => `${BASE}/deliveries?${new URLSearchParams({ ...filled, page: String(n) }).toString()}`;
      return page({
        title: 'Webhook deliveries',
        view: 'webhook-deliveries',
        filters: filled,
        statuses: DELIVERY_STATUSES.map((s) => ({ value: s, selected: s === filled.status })),
        endpoints: endpoints.map((e) => ({ id: e.id, url: e.url, selected: String(e.id) === filled.endpoint_id })),
        deliveries: rows.map(({ delivery, url }) => presentDelivery(delivery, url)),
        ...paging(query.page, query.perPage, count, link),
      });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/webhooks/deliveries/:id',
    params: IdParams,
    async handler({ params }, { services, account, koa }) {
      const detail = presentDeliveryDetail(await findDelivery(services, account.id, params.id));
      return page({
        title: `Delivery ${detail.id}`,
        view: 'webhook-delivery',
        notice: noticeOf(koa),
        delivery: detail,
        attempts: detail.attempt_log.map((a, i) => ({ ...a, number: i + 1, headers: Object.entries(a.request_headers).map(([name, value]) => ({ name, value })) })),
        finished: detail.status === 'Delivered' || detail.status === 'Failed',
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/deliveries/:id/replay',
    audit: 'webhooks.replay',
    params: IdParams,
    async handler({ params }, { services, account }) {
      await replayDelivery(services, account.id, params.id);
      return seeOther(`${BASE}/deliveries/${params.id}?done=replayed`);
    },
  }),

  definePage({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/webhooks/subscriptions',
    async handler(_input, { services, account, koa }) {
      const subscriptions = await listSubscriptions(services, account.id);
      return page({ title: 'Webhook subscriptions', view: 'webhook-subscriptions', notice: noticeOf(koa), subscriptions: subscriptions.map(presentEndpoint) });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhooks/subscriptions/:id/remove',
    audit: 'webhooks.unsubscribe',
    params: IdParams,
    async handler({ params }, { services, account }) {
      await unsubscribe(services, account.id, params.id);
      return seeOther(`${BASE}/subscriptions?done=removed`);
    },
  }),
];
