// Webhook test helpers: subscriptions through the API, member changes that emit events, the delivery log.
import { expect } from 'chai';
import { EVENT_BODIES } from '../../api/webhooks/schema.ts';
import type { Models } from '../../models/index.ts';
import type { WebhookEventType } from '../../services/webhooks/samples.ts';
import type { WebhookDelivery } from '../../models/WebhookDelivery.ts';
import { deliveryWorkflowId } from '../../workflows/webhook-delivery/contract.ts';
import { apiClient, expectSuccess, newAccount, type TestAccount } from './api.ts';
import { eventually } from './eventually.ts';
import { testReceiver, type Receiver } from './receiver.ts';
import { testStack, type TestStack } from './stack.ts';

let pathCounter = 0;
/** A receiver path of its own for each test. */
export const hookPath = (name: string) => `/hook-${process.pid}-${++pathCounter}-${name}`;

export interface DeliveryView {
  id: number;
  event_id: string;
  event_type: string;
  endpoint_id: number;
  status: string;
  error: string | null;
  attempts: number;
  workflow_id: string;
  trigger: string;
}
export interface AttemptView {
  trigger: string;
  request_headers: Record<string, string>;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  outcome: string;
  duration_ms: number;
}
export type DeliveryDetailView = DeliveryView & { body: string; redacted: boolean; attempt_log: AttemptView[] };

export function webhookApi(stack: TestStack, account: TestAccount, key = account.liveKey) {
  const { api } = apiClient(stack, key);
  return {
    api,
    async subscribe(eventType: string, hookUrl: string, extra: Record<string, unknown> = {}): Promise<number> {
      return (expectSuccess(await api('POST', '/pub/team-member-actions/subscribe', { event_type: eventType, hookUrl, ...extra })) as { id: number }).id;
    },
    async upsert(body: Record<string, unknown>) {
      return expectSuccess(await api('POST', '/pub/team-member-actions/upsert', body)) as { member: { id: number } };
    },
    async deliveries(query = ''): Promise<DeliveryView[]> {
      return expectSuccess(await api('GET', `/webhook/deliveries?perPage=100${query}`)) as DeliveryView[];
    },
    async delivery(id: number): Promise<DeliveryDetailView> {
      return expectSuccess(await api('GET', `/webhook/deliveries/findOne/id/${id}`)) as DeliveryDetailView;
    },
    /** Waits until the endpoint's deliveries have all ended (Delivered or Failed), at least `count` of them. */
    async settled(endpointId: number, count = 1, timeoutMs = 15_000): Promise<DeliveryView[]> {
      const list = await eventually(
        async () => (await this.deliveries(`&endpoint_id=${endpointId}`)).reverse(),
        (l) => l.length >= count && l.every((d) => d.status === 'Delivered' || d.status === 'Failed'),
        timeoutMs,
      );
      expect(list.length, JSON.stringify(list)).to.be.at.least(count);
      expect(list.every((d) => d.status === 'Delivered' || d.status === 'Failed'), JSON.stringify(list)).to.equal(true);
      return list;
    },
  };
}

export interface WebhookContext {
  stack: TestStack;
  receiver: Receiver;
  /** A new enterprise account for each test. */
  account: TestAccount;
  hooks: ReturnType<typeof webhookApi>;
}

/** Registers the hooks every webhook suite needs: the stack and receiver once, a fresh account per test. */
export function webhookContext(): WebhookContext {
  const ctx = {} as WebhookContext;
  before(async () => {
    ctx.stack = await testStack();
    ctx.receiver = await testReceiver();
  });
  beforeEach(async () => {
    ctx.account = await newAccount(ctx.stack.models, 'enterprise');
    ctx.hooks = webhookApi(ctx.stack, ctx.account);
  });
  return ctx;
}

/** A delivery row as the drainer makes it (an already drained event), for tests that drive one delivery themselves. */
export async function insertDelivery(models: Models, accountId: number, endpointId: number, options: { workflowStarted: boolean }): Promise<WebhookDelivery> {
  const eventId = crypto.randomUUID();
  return models.sequelize.transaction(async (transaction) => {
    const event = await models.OutboxEvent.create(
      {
        event_id: eventId,
        account_id: accountId,
        event_type: 'team_member_created',
        source: 'api',
        member_id: null,
        payload: JSON.stringify({ event_id: eventId, event_type: 'team_member_created' }),
        occurred_at: new Date(),
        drained_at: new Date(),
      },
      { transaction },
    );
    return models.WebhookDelivery.create(
      {
        account_id: accountId,
        endpoint_id: endpointId,
        outbox_id: event.id,
        event_id: eventId,
        event_type: 'team_member_created',
        trigger: 'auto',
        status: 'Pending',
        error: null,
        finished_at: null,
        workflow_id: deliveryWorkflowId(accountId, eventId, endpointId),
        workflow_started: options.workflowStarted,
      },
      { transaction },
    );
  });
}

/** Checks a body against the one schema of its type's deliveries: nothing missing, nothing the schema does not name. */
export function expectEventShape(type: WebhookEventType, body: unknown): void {
  const parsed = EVENT_BODIES[type].safeParse(body);
  expect(parsed.success, `${type}: ${JSON.stringify(parsed.error?.issues)}`).to.equal(true);
  expect(parsed.data, `${type}: keys the schema does not name`).to.deep.equal(body);
}
