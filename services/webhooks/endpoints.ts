// Webhook endpoints of an account: member-change subscriptions, the ecard_shared URL, re-enabling a paused one.
import { Op, type Transaction, type Attributes } from 'sequelize';
import { invalidParameter, notFound } from '../../lib/errors.ts';
import { resolveTarget, TargetRefusedError } from '../../lib/guarded-http.ts';
import type { WebhookEndpoint } from '../../models/WebhookEndpoint.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { assertWebhookRoom } from '../limits.ts';

/** An endpoint as presenters read it: the row's values, never the model. */
export type WebhookEndpointView = Attributes<WebhookEndpoint>;

/** Integration platforms whose hooks are never paused (a 410 removes them instead); subdomains count, substrings do not. */
export const INTEGRATION_HOSTS = ['zapier.com', 'make.com', 'n8n.cloud'] as const;

export function isIntegrationHost(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return INTEGRATION_HOSTS.some((known) => host === known || host.endsWith(`.${known}`));
}

/** The URL as it will be called: checked by the same guard that every attempt passes (400 when refused). */
export async function checkedUrl(ctx: ServiceContext, url: string, field: string): Promise<string> {
  try {
    return (await resolveTarget(url, { allowPrivate: ctx.config.webhooks.allowPrivateTargets })).url.href;
  } catch (err) {
    if (err instanceof TargetRefusedError) throw invalidParameter(`${field}: ${err.message}`);
    throw err;
  }
}

const active = { removed_at: { [Op.is]: null } };

/** Subscribing the same (event_type, hookUrl) again returns the existing subscription. */
export async function subscribe(ctx: ServiceContext, accountId: number, input: { eventType: string; hookUrl: string; integration: boolean }): Promise<WebhookEndpoint> {
  const url = await checkedUrl(ctx, input.hookUrl, 'hookUrl');
  return accountTransaction(ctx, accountId, async (transaction) => {
    const existing = await ctx.models.WebhookEndpoint.findOne({
      where: { account_id: accountId, kind: 'member_change', event_type: input.eventType, url, ...active },
      transaction,
    });
    if (existing) return existing;
    await assertWebhookRoom(ctx, accountId, transaction);
    return ctx.models.WebhookEndpoint.create(
      { account_id: accountId, kind: 'member_change', event_type: input.eventType, url, integration: input.integration || isIntegrationHost(url) },
      { transaction },
    );
  });
}

async function mustFind(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<WebhookEndpoint> {
  const { models } = ctx;
  const endpoint = await models.WebhookEndpoint.findOne({ where: { id, account_id: accountId, ...active }, ...(transaction ? { transaction } : {}) });
  if (!endpoint) throw notFound(`No webhook endpoint with id ${id}`);
  return endpoint;
}

export async function unsubscribe(ctx: ServiceContext, accountId: number, id: number): Promise<number> {
  const endpoint = await mustFind(ctx, accountId, id);
  if (endpoint.kind !== 'member_change') throw notFound(`No subscription with id ${id}`);
  await removeEndpoint(ctx, endpoint.id, ctx.now());
  return endpoint.id;
}

/** Removes a subscription (unsubscribe, or a 410); deliveries still retrying to it end `Failed` at their next attempt. */
export async function removeEndpoint(ctx: Pick<ServiceContext, 'models'>, endpointId: number, at: Date, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  await models.WebhookEndpoint.update({ removed_at: at }, { where: { id: endpointId, ...active }, ...(transaction ? { transaction } : {}) });
}

/** Sets (or, blank, disables) the account's ecard_shared URL; a new URL starts active with a clean count. */
export async function setEcardSharedUrl(ctx: ServiceContext, accountId: number, rawUrl: string): Promise<WebhookEndpoint | null> {
  const url = rawUrl.trim() === '' ? null : await checkedUrl(ctx, rawUrl.trim(), 'url');
  return accountTransaction(ctx, accountId, async (transaction) => {
    const current = await ctx.models.WebhookEndpoint.findOne({ where: { account_id: accountId, kind: 'ecard_shared', ...active }, transaction });
    if (current && current.url === url) return current;
    if (current) await removeEndpoint(ctx, current.id, ctx.now(), transaction);
    if (url === null) return null;
    // After the old URL's removal: replacing the URL never grows the count.
    await assertWebhookRoom(ctx, accountId, transaction);
    return ctx.models.WebhookEndpoint.create({ account_id: accountId, kind: 'ecard_shared', event_type: null, url, integration: false }, { transaction });
  });
}

export async function ecardSharedEndpoint(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<WebhookEndpoint | null> {
  const { models } = ctx;
  return models.WebhookEndpoint.findOne({ where: { account_id: accountId, kind: 'ecard_shared', ...active } });
}

/** Re-enables a paused endpoint and resets its count of consecutive exhausted deliveries. */
export async function enableEndpoint(ctx: ServiceContext, accountId: number, id: number): Promise<WebhookEndpoint> {
  const endpoint = await mustFind(ctx, accountId, id);
  return endpoint.update({ paused_at: null, consecutive_failures: 0 });
}

export async function listEndpoints(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<WebhookEndpoint[]> {
  const { models } = ctx;
  return models.WebhookEndpoint.findAll({ where: { account_id: accountId, ...active }, order: [['id', 'ASC']] });
}

/** The account's member-change subscriptions (what subscribe made and unsubscribe removes). */
export async function listSubscriptions(ctx: Pick<ServiceContext, 'models'>, accountId: number): Promise<WebhookEndpoint[]> {
  const { models } = ctx;
  return models.WebhookEndpoint.findAll({ where: { account_id: accountId, kind: 'member_change', ...active }, order: [['id', 'ASC']] });
}

export async function findEndpoint(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number): Promise<WebhookEndpoint> {
  return mustFind(ctx, accountId, id);
}
