// Webhook endpoints: member-change subscriptions, the ecard_shared URL, endpoints, the delivery log, replay, test.
import type { z } from 'zod';
import { enableEndpoint, listEndpoints, setEcardSharedUrl, subscribe, unsubscribe } from '../../services/webhooks/endpoints.ts';
import { findDelivery, listDeliveries, replayDelivery, sendTest, type LoggedDelivery } from '../../services/webhooks/deliveries.ts';
import { checkAccess } from '../http/mount.ts';
import { defineRoute } from '../http/route.ts';
import { isAnyOutcomeEventType } from '../../services/sends/delivery/outcome-events.ts';
import { sampleEvent } from '../../services/webhooks/samples.ts';
import { pageMeta } from '../schema-helpers.ts';
import { seesDirectory } from '../scopes.ts';
import { presentDelivery, presentDeliveryDetail, presentEndpoint } from './present.ts';
import {
  Delivery,
  DeliveryDetail,
  DeliveryIdParams,
  DeliveryList,
  DeliveryListQuery,
  deliveryQueryOf,
  EcardSharedUrlAnswer,
  EcardSharedUrlBody,
  EnableBody,
  Endpoint,
  EndpointList,
  PageMeta,
  ReplayBody,
  SampleEvent,
  SampleQuery,
  SubscribeAnswer,
  SubscribeBody,
  TestBody,
  UnsubscribeAnswer,
  UnsubscribeBody,
} from './schema.ts';

const tags = ['webhooks'];
const view = { area: 'webhooks', level: 'view' } as const;
const manage = { area: 'webhooks', level: 'manage' } as const;

const present = ({ delivery, url }: LoggedDelivery) => presentDelivery(delivery, url);

export const webhookRoutes = [
  defineRoute({
    method: 'post',
    path: '/pub/team-member-actions/subscribe',
    audit: 'webhooks.subscribe',
    summary: 'Subscribes a URL to one member-change or outcome event type (outcome types also need sends: view; the same pair again returns the same id)',
    tags,
    access: manage,
    body: SubscribeBody,
    response: SubscribeAnswer,
    async handler({ body }, { services, caller }) {
      // Outcome events carry what became of sends: reading them needs sends: view as well.
      if (isAnyOutcomeEventType(body.event_type)) checkAccess({ area: 'sends', level: 'view' }, caller.apiKey);
      const endpoint = await subscribe(services, caller.account.id, { eventType: body.event_type, hookUrl: body.hookUrl, integration: body.integration });
      return { id: endpoint.id };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/pub/team-member-actions/unsubscribe',
    audit: 'webhooks.unsubscribe',
    summary: 'Removes a member-change subscription',
    tags,
    access: manage,
    body: UnsubscribeBody,
    response: UnsubscribeAnswer,
    async handler({ body }, { services, caller }) {
      return { id: await unsubscribe(services, caller.account.id, body.id), removed: true as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhook/ecard-shared-url',
    audit: 'webhooks.set_url',
    summary: 'Sets the account\'s ecard_shared webhook URL (blank disables it)',
    tags,
    access: manage,
    body: EcardSharedUrlBody,
    response: EcardSharedUrlAnswer,
    async handler({ body }, { services, caller }) {
      const endpoint = await setEcardSharedUrl(services, caller.account.id, body.url);
      return { endpoint: endpoint ? presentEndpoint(endpoint) : null };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/webhook/endpoints',
    summary: 'The account\'s webhook endpoints with their state',
    tags,
    access: view,
    response: EndpointList,
    async handler(_input, { services, caller }) {
      return (await listEndpoints(services, caller.account.id)).map(presentEndpoint);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhook/endpoints/enable',
    audit: 'webhooks.enable_endpoint',
    summary: 'Re-enables a paused endpoint and resets its count of failed deliveries',
    tags,
    access: manage,
    body: EnableBody,
    response: Endpoint,
    async handler({ body }, { services, caller }) {
      return presentEndpoint(await enableEndpoint(services, caller.account.id, body.endpoint_id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/webhook/deliveries',
    summary: 'The delivery log, newest first',
    tags,
    access: view,
    query: DeliveryListQuery,
    response: DeliveryList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { rows, count } = await listDeliveries(services, caller.account.id, deliveryQueryOf(query));
      return { data: rows.map(present), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/webhook/deliveries/findOne/id/:id',
    summary: 'One delivery with the exact body and every attempt (headers, response, error, duration); a member-change event’s member is masked for a key without directory: view',
    tags,
    access: view,
    params: DeliveryIdParams,
    response: DeliveryDetail,
    async handler({ params }, { services, caller }) {
      return presentDeliveryDetail(await findDelivery(services, caller.account.id, params.id), seesDirectory(caller));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhook/deliveries/replay',
    audit: 'webhooks.replay',
    summary: 'Sends a finished delivery again (same body and event id) as a new attempt',
    tags,
    access: manage,
    body: ReplayBody,
    response: Delivery,
    async handler({ body }, { services, caller }) {
      return present(await replayDelivery(services, caller.account.id, body.id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhook/test',
    audit: 'webhooks.test',
    summary: 'Fires a sample event, signed and logged, at an endpoint (default: the ecard_shared URL), even while paused',
    tags,
    access: manage,
    body: TestBody,
    response: Delivery,
    async handler({ body }, { services, caller }) {
      return present(await sendTest(services, caller.account.id, body.endpoint_id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/webhook/sample',
    summary: 'One delivery body of a type (ecard_shared, a member-change or an outcome event), made of invented data, shaped as a real delivery of that type',
    tags,
    access: view,
    query: SampleQuery,
    response: SampleEvent,
    async handler({ query }, { services }) {
      return sampleEvent(query.event_type, services.now()) as z.input<typeof SampleEvent>;
    },
  }),
];
