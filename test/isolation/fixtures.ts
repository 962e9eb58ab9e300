// One of everything an id can name, made in an account through its own key (and straight in the database where
// the API makes none), and snapshots of every row an account owns, to show a run left it unchanged.
import { expect } from 'chai';
import type { ResourceKind } from '../../api/schema-helpers.ts';
import type { Models } from '../../models/index.ts';
import { apiClient, newKey } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { randomBytes } from 'node:crypto';
import { ownerUser, sandboxEmail } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { shareCard } from '../helpers/sends.ts';
import type { TestStack } from '../helpers/stack.ts';
import { insertDelivery } from '../helpers/webhooks.ts';
import type { TestAccount } from '../helpers/api.ts';

export const KINDS_MADE: readonly ResourceKind[] = [
  'ecard', 'widget', 'brand', 'campaign', 'automation', 'member', 'department', 'send', 'webhook_endpoint', 'webhook_delivery', 'api_key', 'sandbox_email', 'token_resource', 'console_session', 'console_user', 'audit_event', 'account',
];

/** Ids of one account's things, and strings only that account's rows hold (a list showing one leaks). */
export interface Made {
  accountId: number;
  ids: Partial<Record<ResourceKind, number | string>>;
  vanity: { ecard: string; widget: string };
  email: string;
  employeeId: string;
  markers: string[];
}

let counter = 0;

/** Everything in `accountId`, made with `key` (that account's); `sandboxMail` of `owner`'s sandbox when given. */
export async function makeEverything(stack: TestStack, accountId: number, key: string, sandboxOf?: TestAccount): Promise<Made> {
  const tag = `iso${process.pid}x${++counter}`;
  const { ok } = apiClient(stack, key);
  const widget = await insertWidget(stack.models, accountId, { name: `W-${tag}` });
  const ecard = await insertEcard(stack.models, accountId, widget.id, { name: `E-${tag}` });
  const send = await shareCard(stack.url, key, ecard.id);
  const brand = await ok<{ id: number }>('POST', '/brand/save', { brand: { name: `B-${tag}` } });
  const campaign = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: `C-${tag}` } });
  const automation = await ok<{ id: number }>('POST', '/automation/save', { automation: { automation_name: `A-${tag}`, event_type: 'birthday' } });
  const email = `${tag}@members.example.com`;
  const employeeId = `EMP-${tag}`;
  const member = await ok<{ member: { id: number } }>('POST', '/pub/team-member-actions/upsert', { email, employee_id: employeeId, first_name: `F-${tag}`, departments: [`D-${tag}`] });
  const departments = await ok<Array<{ id: number; name: string }>>('GET', '/pub/team-member-actions/departments');
  // Subscribed after the member's event, so no delivery of it changes rows while the matrix runs.
  await eventually(() => stack.models.OutboxEvent.count({ where: { account_id: accountId, drained_at: null } }), (n) => n === 0, 15_000);
  const receiver = await testReceiver();
  const endpoint = await ok<{ id: number }>('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created', hookUrl: `${receiver.url}/isolation-${tag}` });
  const delivery = await insertDelivery(stack.models, accountId, endpoint.id, { workflowStarted: true });
  const apiKey = await newKey(stack.models, accountId, { ecards: 'view' }, sandboxOf ? 'live' : 'test');
  const ids: Made['ids'] = {
    widget: widget.id,
    ecard: ecard.id,
    brand: brand.id,
    send: send.sendId,
    campaign: campaign.id,
    automation: automation.id,
    member: member.member.id,
    department: departments.find((d) => d.name === `D-${tag}`)!.id,
    webhook_endpoint: endpoint.id,
    webhook_delivery: delivery.id,
    api_key: apiKey.keyId,
  };
  // The account itself (the console's switch names it; a sandbox is no one's to switch to).
  ids.account = accountId;
  // The brand's save above wrote one.
  ids.audit_event = (await stack.models.AuditEvent.findOne({ where: { account_id: accountId }, order: [['id', 'DESC']] }))!.id;
  // A console session and the person of a live account's owner: people are not a twin's (the sandbox's owner is the
  // live one's, whose own sessions are theirs), so only another account's person is 404.
  if (sandboxOf) {
    ids.console_session = await ownerSession(stack.models, accountId);
    ids.console_user = (await ownerUser(stack.models, accountId)).id;
  }
  // Outbox rows are the sandbox's: an account's own twin holds them.
  if (sandboxOf) ids.sandbox_email = (await sandboxEmail(stack, sandboxOf, `${tag}@mail.example.com`)).id;
  return {
    accountId,
    ids,
    vanity: { ecard: ecard.vanity_id, widget: widget.vanity_id },
    email,
    employeeId,
    markers: [tag, ecard.vanity_id, widget.vanity_id, send.sendId, send.statVanityId],
  };
}

/** A session of the live account's owner, made in the database: its public id. */
async function ownerSession(models: Models, accountId: number): Promise<string> {
  const owner = await ownerUser(models, accountId);
  const now = new Date();
  const session = await models.ConsoleSession.create({
    id_hash: randomBytes(32).toString('hex'), public_id: randomBytes(12).toString('base64url'), owner_id: owner.id, account_id: accountId,
    csrf_secret: randomBytes(32).toString('hex'), created_at: now, last_seen_at: now,
  });
  return session.public_id;
}

/** Every row of the accounts, table by table (rows that belong to an account's sends and members included). */
export async function snapshot(models: Models, accountIds: number[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  const byAccount = Object.values(models.sequelize.models).filter((model) => 'account_id' in model.getAttributes());
  for (const model of byAccount) {
    out[model.name] = await model.findAll({ where: { account_id: accountIds }, order: [[model.primaryKeyAttribute, 'ASC']], raw: true });
  }
  const sendIds = (out.Send ?? []).map((s) => (s as { id: number }).id);
  const memberIds = (out.TeamMember ?? []).map((m) => (m as { id: number }).id);
  const deliveryIds = (out.WebhookDelivery ?? []).map((d) => (d as { id: number }).id);
  const children: Array<[string, string, number[]]> = [
    ['SendSnapshot', 'send_id', sendIds],
    ['SendDesignRef', 'send_id', sendIds],
    ['SendRecipient', 'send_id', sendIds],
    ['MemberDepartment', 'member_id', memberIds],
    ['MemberCustomValue', 'member_id', memberIds],
    ['WebhookAttempt', 'delivery_id', deliveryIds],
  ];
  for (const [name, column, ids] of children) {
    const model = models.sequelize.models[name];
    if (!model || !(column in model.getAttributes())) continue;
    out[name] = await model.findAll({ where: { [column]: ids }, raw: true });
  }
  for (const rows of Object.values(out)) expect(rows).to.be.an('array');
  return out;
}
