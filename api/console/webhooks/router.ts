// The console's webhooks: the ecard_shared URL, the signing secret (step-up), endpoints, the delivery log with every
// attempt, replay, test sends and member-change subscriptions. The same services as the key API's webhook routes and
// `cardsvc webhook`, scoped to the console's current account (foreign ids are 404 there).
import { findDelivery, listDeliveries, replayDelivery, sendTest, type LoggedDelivery } from '../../../services/webhooks/deliveries.ts';
import { ecardSharedEndpoint, enableEndpoint, listEndpoints, listSubscriptions, setEcardSharedUrl, unsubscribe } from '../../../services/webhooks/endpoints.ts';
import { shownSecret } from '../../../services/webhooks/secrets.ts';
import { pageMeta } from '../../schema-helpers.ts';
import { presentDelivery, presentDeliveryDetail, presentEndpoint } from '../../webhooks/present.ts';
import {
  Delivery,
  DeliveryDetail,
  DeliveryList,
  DeliveryListQuery,
  deliveryQueryOf,
  EcardSharedUrlAnswer,
  EcardSharedUrlBody,
  Endpoint,
  EndpointList,
  PageMeta,
  TestBody,
  UnsubscribeAnswer,
} from '../../webhooks/schema.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { DeliveryIdParams, EndpointIdParams, SigningSecret } from './schema.ts';

const present = ({ delivery, url }: LoggedDelivery) => presentDelivery(delivery, url);

export const consoleWebhookRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/ecard-shared-url',
    summary: 'The ecard_shared webhook endpoint, or null when it is off',
    response: EcardSharedUrlAnswer,
    async handler(_input, { services, account }) {
      const endpoint = await ecardSharedEndpoint(services, account.id);
      return { endpoint: endpoint ? presentEndpoint(endpoint) : null };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/ecard-shared-url',
    audit: 'webhooks.set_url',
    summary: 'Sets the ecard_shared webhook URL (blank disables it)',
    body: EcardSharedUrlBody,
    response: EcardSharedUrlAnswer,
    async handler({ body }, { services, account }) {
      const endpoint = await setEcardSharedUrl(services, account.id, body.url);
      return { endpoint: endpoint ? presentEndpoint(endpoint) : null };
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'webhooks', level: 'manage' },
    path: '/secret',
    audit: 'webhooks.reveal_secret',
    summary: 'The signing secret (and the previous one while it still signs); needs a step-up',
    response: SigningSecret,
    access: { stepUp: 'Revealing the signing secret' },
    async handler(_input, { services, account }) {
      return shownSecret(services, account.id, services.now(), false);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/secret/rotate',
    audit: 'webhooks.rotate_secret',
    summary: 'A new signing secret; the previous one also signs for 24 hours; needs a step-up',
    response: SigningSecret,
    access: { stepUp: 'Rotating the signing secret' },
    async handler(_input, { services, account }) {
      return shownSecret(services, account.id, services.now(), true);
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/endpoints',
    summary: 'The webhook endpoints with their state',
    response: EndpointList,
    async handler(_input, { services, account }) {
      return (await listEndpoints(services, account.id)).map(presentEndpoint);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/endpoints/:id/enable',
    audit: 'webhooks.enable_endpoint',
    summary: 'Re-enables a paused endpoint and resets its count of failed deliveries',
    params: EndpointIdParams,
    response: Endpoint,
    async handler({ params }, { services, account }) {
      return presentEndpoint(await enableEndpoint(services, account.id, params.id));
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/deliveries',
    summary: 'The delivery log, newest first (the key API\'s filters and paging)',
    query: DeliveryListQuery,
    response: DeliveryList,
    meta: PageMeta,
    async handler({ query }, { services, account }) {
      const { rows, count } = await listDeliveries(services, account.id, deliveryQueryOf(query));
      return { data: rows.map(present), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/deliveries/:id',
    summary: 'One delivery with the exact body and every attempt',
    params: DeliveryIdParams,
    response: DeliveryDetail,
    async handler({ params }, { services, account }) {
      return presentDeliveryDetail(await findDelivery(services, account.id, params.id));
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/deliveries/:id/replay',
    audit: 'webhooks.replay',
    summary: 'Sends a finished delivery again (same body and event id) as a new attempt',
    params: DeliveryIdParams,
    response: Delivery,
    async handler({ params }, { services, account }) {
      return present(await replayDelivery(services, account.id, params.id));
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/webhook-test',
    audit: 'webhooks.test',
    summary: 'Fires a sample event at an endpoint (default: the ecard_shared URL), even while it is paused',
    body: TestBody,
    response: Delivery,
    async handler({ body }, { services, account }) {
      return present(await sendTest(services, account.id, body.endpoint_id));
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'webhooks', level: 'view' },
    path: '/subscriptions',
    summary: 'The member-change webhook subscriptions',
    response: EndpointList,
    async handler(_input, { services, account }) {
      return (await listSubscriptions(services, account.id)).map(presentEndpoint);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'webhooks', level: 'manage' },
    path: '/subscriptions/:id/remove',
    audit: 'webhooks.unsubscribe',
    summary: 'Removes a member-change subscription',
    params: EndpointIdParams,
    response: UnsubscribeAnswer,
    async handler({ params }, { services, account }) {
      return { id: await unsubscribe(services, account.id, params.id), removed: true as const };
    },
  }),
];
