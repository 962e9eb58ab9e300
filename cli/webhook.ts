// `cardsvc webhook set-url | enable | secret`: an account's webhooks from an operator's shell, beside the console's webhook pages.
import { parseArgs } from 'node:util';
import { resolveAccount } from '../services/api-keys.ts';
import { enableEndpoint, setEcardSharedUrl } from '../services/webhooks/endpoints.ts';
import { shownSecret } from '../services/webhooks/secrets.ts';
import type { WebhookEndpoint } from '../models/WebhookEndpoint.ts';
import type { CommandContext } from './context.ts';
import { positiveId, UsageError } from './output.ts';

const accountOptions = {
  account: { type: 'string' },
  sandbox: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
} as const;

const shown = (e: WebhookEndpoint) => ({ id: e.id, kind: e.kind, url: e.url, state: e.paused_at ? 'paused' : 'active', consecutive_failures: e.consecutive_failures });

async function context(ctx: CommandContext, values: { account?: string | undefined; sandbox: boolean }) {
  const accountId = positiveId(values.account, '--account');
  const services = await ctx.services();
  const account = await resolveAccount(services, accountId, values.sandbox);
  return { account, services };
}

async function setUrl(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { ...accountOptions, url: { type: 'string' } } });
  if (values.url === undefined) throw new UsageError('--url is required ("" disables the ecard_shared webhook)');
  const { account, services } = await context(ctx, values);
  const endpoint = await setEcardSharedUrl(services, account.id, values.url);
  ctx.out.message(endpoint ? `ecard_shared events of account ${account.id} go to ${endpoint.url}.` : `The ecard_shared webhook of account ${account.id} is off.`);
  ctx.out.result({ endpoint: endpoint ? shown(endpoint) : null }, endpoint ? `endpoint ${endpoint.id}: ${endpoint.url}` : 'disabled');
}

async function enable(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { ...accountOptions, 'endpoint-id': { type: 'string' } } });
  const endpointId = positiveId(values['endpoint-id'], '--endpoint-id');
  const { account, services } = await context(ctx, values);
  const endpoint = await enableEndpoint(services, account.id, endpointId);
  ctx.out.message(`Endpoint ${endpoint.id} (${endpoint.url}) is active again; its failure count is reset.`);
  ctx.out.result(shown(endpoint));
}

async function secret(args: string[], ctx: CommandContext) {
  const { values } = parseArgs({ args, options: { ...accountOptions, rotate: { type: 'boolean', default: false } } });
  const { account, services } = await context(ctx, values);
  const signing = await shownSecret(services, account.id, new Date(), values.rotate);
  if (values.rotate) ctx.out.message(`Rotated the signing secret of account ${account.id}; the previous one also signs for 24 hours.`);
  ctx.out.result(signing);
}

export const webhookCommands = { 'webhook set-url': setUrl, 'webhook enable': enable, 'webhook secret': secret };
