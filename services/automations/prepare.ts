// The preparation of one batch's pending rows (up to BULK_BATCH_SIZE, 500), as a campaign batch prepares its
// recipients: in one transaction under the account's lock (once per batch, never per member or micro-batch),
// members no longer active or in scope, suppressed addresses and a suspended account are `skipped`; the quota is
// reserved, 1 per card or digest (refused → `failed` wouldexceedlimit, the owner told at most once a day); each row
// gets its eCard and message (a stable hash) and its send, all stored before any email goes out. The bulk sender
// then claims and delivers the sends in micro-batches.
import { Op, type Transaction } from 'sequelize';
import type { Account } from '../../models/Account.ts';
import type { NotificationType } from '../../models/AutomationEcard.ts';
import type { AutomationSend } from '../../models/AutomationSend.ts';
import type { Ecard } from '../../models/Ecard.ts';
import { accountTransaction } from '../account-lock.ts';
import { prepareBulkSends, sendLinks, type BulkRecipient } from '../bulk-send/prepare.ts';
import { suppressedEmails } from '../bulk-send/steps.ts';
import type { ServiceContext } from '../context.ts';
import { queueOwnerNotice } from '../owner-mail.ts';
import { orderBulkGifts } from '../rewards/bulk-gift.ts';
import { billingMonth, quotaRemaining, releaseQuota, reserveQuota } from '../sends/accept/quota.ts';
import { reserveAutomationGifts } from './gifts.ts';
import { isSuspended } from '../sends/accept/rules.ts';
import type { AutomationConfig } from './config.ts';
import { drawFrom, ecardCandidates } from './draw.ts';
import { localDateOf, ordinal } from './due.ts';
import type { StoredCelebrant } from './find-due.ts';
import { activeMembers, inScope, type ScopedMember } from './members.ts';

const nameOf = (m: Pick<ScopedMember, 'first_name' | 'last_name' | 'email'>) => [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email;

/** The eCard ids and messages a row draws from: a milestone rule's own when it has them, else the automation's. */
function choicesOf(config: AutomationConfig, row: AutomationSend): { ecardIds: number[]; messages: string[] } {
  if (row.kind === 'digest') return { ecardIds: config.notification_ecards[row.occurrence_key.split(':')[0] as NotificationType] ?? [], messages: [] };
  const rule = row.milestone_index !== null ? config.milestone_rules[row.milestone_index] : undefined;
  return {
    ecardIds: [...ecardCandidates(config.selected_ecard_ids, rule?.ecard_ids)],
    messages: rule?.messages?.length ? [...rule.messages] : config.random_messages,
  };
}

function cardTags(row: AutomationSend, member: ScopedMember): Record<string, string> {
  const tags: Record<string, string> = { first_name: member.first_name ?? '', last_name: member.last_name ?? '', occasion_date: row.occasion_date ?? '' };
  // A birthday's row never has years (the due module drops them): the age is never shown.
  if (row.years !== null) Object.assign(tags, { years: String(row.years), years_ordinal: ordinal(row.years) });
  return tags;
}

type Outcome = { skip: string } | { fail: string } | { recipient: BulkRecipient; message: string | null };

/** Rows whose quota was refused are failed, and the owner hears of it once a day per automation. */
async function refuseQuota(ctx: ServiceContext, config: AutomationConfig, account: Account, count: number, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const today = localDateOf(ctx.now(), config.timing_config?.timezone ?? 'UTC');
  const [first] = await models.Automation.update(
    { quota_notice_on: today },
    { where: { id: config.row.id, [Op.or]: [{ quota_notice_on: { [Op.is]: null } }, { quota_notice_on: { [Op.ne]: today } }] }, transaction, silent: true },
  );
  if (!first) return;
  await queueOwnerNotice(
    ctx,
    account.id,
    {
      kind: 'automation_quota',
      subject: `Automation "${config.row.automation_name}" could not send: monthly email limit reached`,
      paragraphs: [
        `Your automation "${config.row.automation_name}" (id ${config.row.id}) could not send ${count} card(s) today because the ${account.plan} plan's emails for this month are used up.`,
        'Those cards will not be sent later. Upgrade the plan or wait for next month; you will get at most one such email a day for this automation.',
      ],
    },
    ctx.now(),
    transaction,
  );
}

/** Prepares the rows (pending, not yet prepared) of one batch. */
export async function prepareRows(ctx: ServiceContext, config: AutomationConfig, rowIds: number[]): Promise<void> {
  const { models } = ctx;
  await accountTransaction(ctx, config.row.account_id, async (transaction, account) => {
    const rows = await models.AutomationSend.findAll({ where: { id: rowIds, status: 'pending', send_id: { [Op.is]: null } }, order: [['id', 'ASC']], transaction });
    if (rows.length === 0) return;
    const outcomes = new Map<number, Outcome>();
    if (await isSuspended(ctx, account.id, transaction)) {
      for (const row of rows) outcomes.set(row.id, { skip: 'suspended' });
    } else {
      await decide(ctx, config, rows, outcomes, transaction);
    }
    await applyOutcomes(ctx, config, account, rows, outcomes, transaction);
  });
}

async function decide(ctx: ServiceContext, config: AutomationConfig, rows: AutomationSend[], outcomes: Map<number, Outcome>, transaction: Transaction) {
  const { models } = ctx;
  const accountId = config.row.account_id;
  const celebrantsOf = new Map(rows.map((r) => [r.id, r.celebrants ? (JSON.parse(r.celebrants) as StoredCelebrant[]) : []]));
  const people = new Map(
    (await activeMembers(ctx, accountId, { ids: rows.flatMap((r) => [r.member_id, ...celebrantsOf.get(r.id)!.map((c) => c.member_id)]), transaction })).map((m) => [m.id, m]),
  );
  const blocked = await suppressedEmails(ctx, accountId, [...people.values()].map((m) => m.email), transaction);
  const wanted = [...new Set(rows.flatMap((r) => choicesOf(config, r).ecardIds))];
  const ecards = new Map(
    (wanted.length ? await models.Ecard.findAll({ where: { id: wanted, account_id: accountId, disabled: false }, transaction }) : []).map((e) => [e.id, e]),
  );
  for (const row of rows) {
    const member = people.get(row.member_id);
    if (!member) outcomes.set(row.id, { skip: 'inactive' });
    else if (row.kind === 'card' && !inScope(config, member)) outcomes.set(row.id, { skip: 'out_of_scope' });
    else if (blocked.has(member.email.toLowerCase())) outcomes.set(row.id, { skip: 'suppressed' });
    else outcomes.set(row.id, compose(config, row, member, celebrantsOf.get(row.id)!, people, ecards));
  }
}

function compose(
  config: AutomationConfig,
  row: AutomationSend,
  member: ScopedMember,
  stored: StoredCelebrant[],
  people: Map<number, ScopedMember>,
  ecards: Map<number, Ecard>,
): Outcome {
  if (!config.row.from_email) return { fail: 'automation_incomplete' };
  const choices = choicesOf(config, row);
  // Only the account's enabled eCards are drawn from (one deleted or disabled since the save drops out).
  const usable = choices.ecardIds.filter((id) => ecards.has(id));
  const ecardId = drawFrom(usable, config.row.id, row.member_id, row.occurrence_key);
  if (ecardId === undefined) return { fail: 'no_ecard' };
  const ecard = ecards.get(ecardId)!;
  const message = drawFrom(choices.messages, config.row.id, row.member_id, row.occurrence_key, 1) ?? null;
  const base = { key: row.id, email: member.email.toLowerCase(), name: nameOf(member), ecard, personalMessage: message };
  if (row.kind === 'card') return { recipient: { ...base, mergeTags: cardTags(row, member) }, message };
  // A digest lists the celebrants still active; none left, nothing to say.
  const celebrants = stored.flatMap((c) => {
    const person = people.get(c.member_id);
    return person ? [{ name: nameOf(person), event: c.event, occasion_date: c.occasion_date, years: c.years !== undefined ? String(c.years) : '' }] : [];
  });
  if (celebrants.length === 0) return { skip: 'inactive' };
  return { recipient: { ...base, mergeTags: { first_name: member.first_name ?? '', last_name: member.last_name ?? '', celebrants } }, message };
}

async function applyOutcomes(ctx: ServiceContext, config: AutomationConfig, account: Account, rows: AutomationSend[], outcomes: Map<number, Outcome>, transaction: Transaction) {
  const { models } = ctx;
  const rowsById = new Map(rows.map((r) => [r.id, r]));
  const byReason = new Map<string, { status: 'skipped' | 'failed'; ids: number[] }>();
  const note = (status: 'skipped' | 'failed', reason: string, id: number) => {
    const entry = byReason.get(`${status}:${reason}`) ?? byReason.set(`${status}:${reason}`, { status, ids: [] }).get(`${status}:${reason}`)!;
    entry.ids.push(id);
  };
  const ready: Array<{ recipient: BulkRecipient; message: string | null }> = [];
  for (const row of rows) {
    const outcome = outcomes.get(row.id)!;
    if ('skip' in outcome) note('skipped', outcome.skip, row.id);
    else if ('fail' in outcome) note('failed', outcome.fail, row.id);
    else ready.push(outcome);
  }
  // Quota: 1 per email, reserved now for the month of the preparation; what does not fit fails (in row order).
  const sandbox = account.mode === 'sandbox';
  const month = billingMonth(ctx.now());
  let granted = ready.length;
  if (!sandbox && ready.length) {
    const limit = ctx.config.emailsPerMonth[account.plan];
    if (!(await reserveQuota(ctx, account.id, month, ready.length, limit, transaction))) {
      granted = Math.min(ready.length, await quotaRemaining(ctx, account.id, month, limit, transaction));
      if (granted > 0 && !(await reserveQuota(ctx, account.id, month, granted, limit, transaction))) granted = 0;
      for (const r of ready.slice(granted)) note('failed', 'wouldexceedlimit', r.recipient.key);
      await refuseQuota(ctx, config, account, ready.length - granted, transaction);
    }
  }
  const quotaGranted = ready.slice(0, granted);
  // Gift automations: each card's spend reserved now, one recipient at a time (refused → failed spendlimit).
  const gifted = await reserveAutomationGifts(ctx, config, account, quotaGranted.filter((s) => rowsById.get(s.recipient.key)?.kind === 'card').map((s) => s.recipient.key), transaction);
  for (const id of gifted.refused) note('failed', 'spendlimit', id);
  const sending = quotaGranted.filter((s) => !gifted.refused.includes(s.recipient.key));
  // Their quota, reserved above, goes back.
  if (!sandbox && gifted.refused.length) await releaseQuota(ctx, account.id, month, gifted.refused.length, transaction);
  for (const [key, { status, ids }] of byReason) {
    const reason = key.slice(status.length + 1);
    await models.AutomationSend.update({ status, reason }, { where: { id: ids }, transaction });
  }
  if (sending.length === 0) return;
  const sender = { name: config.row.from_name || config.row.from_email!, email: config.row.from_email!, personalMessage: null, locale: config.row.locale, sandbox };
  const sendPks = await prepareBulkSends(ctx, account.id, { kind: 'automation', id: config.row.id }, sender, sending.map((s) => s.recipient), transaction);
  if (gifted.gift) {
    const giftRows = sending.filter((s) => gifted.granted.includes(s.recipient.key));
    await orderBulkGifts(
      ctx,
      { accountId: account.id, scope: 'automation', automationId: config.row.id, gift: gifted.gift, spendDay: gifted.day, holder: null },
      giftRows.map((s) => {
        const row = rowsById.get(s.recipient.key)!;
        return { orderKey: `automation:${config.row.id}:${row.member_id}:${row.occurrence_key}`, sendPk: sendPks.get(s.recipient.key)!, memberId: row.member_id, name: s.recipient.name, email: s.recipient.email };
      }),
      transaction,
    );
  }
  await models.AutomationSend.update(
    { ...sendLinks(sending.map((s) => s.recipient), sendPks), quota_month: sandbox ? null : month },
    { where: { id: sending.map((s) => s.recipient.key) }, transaction },
  );
  // Each distinct message is one more UPDATE.
  const byMessage = new Map<string, number[]>();
  for (const s of sending) if (s.message !== null) byMessage.set(s.message, [...(byMessage.get(s.message) ?? []), s.recipient.key]);
  for (const [message, ids] of byMessage) await models.AutomationSend.update({ message }, { where: { id: ids }, transaction });
}
