// Erasing a member from the automations, in the directory erasure's transaction (under the account's lock): the
// member's automation_sends rows go (its cards, the digests it received: an erased member is never due again, so
// nothing needs them for exactly-once), its entries leave other people's digest rows, its id leaves each
// automation's selected_member_ids and notification_segment.member_ids. The sends those rows made to it are
// redacted as a campaign recipient's are, and one not yet on its way is canceled. An enabled automation that was
// limited to erased members alone is disabled (it would otherwise reach every active member) and its owner told.
import { Op, type Transaction } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { releaseQuota } from '../sends/accept/quota.ts';
import { cancelUnclaimedSends, redactSends } from '../sends/erasure/redact.ts';
import { automationDisables } from './disable.ts';
import type { StoredCelebrant } from './find-due.ts';

export interface AutomationErasure {
  /** In the erasure's transaction, which holds the account's lock. */
  erase(memberId: number, transaction: Transaction): Promise<void>;
  /** After the erasure committed: the Schedules of the automations it disabled. */
  afterCommit(): Promise<void>;
}

const parsedIds = (text: string | null): number[] => (text ? (JSON.parse(text) as number[]) : []);

export function automationErasure(ctx: ServiceContext, accountId: number): AutomationErasure {
  const { models } = ctx;
  const disables = automationDisables(ctx, accountId);

  async function dropOwnRows(memberId: number, transaction: Transaction): Promise<void> {
    const rows = await models.AutomationSend.findAll({ attributes: ['send_id', 'quota_month'], where: { account_id: accountId, member_id: memberId }, raw: true, transaction });
    const sendIds = rows.flatMap((r) => (r.send_id ? [r.send_id] : []));
    await models.AutomationSend.destroy({ where: { account_id: accountId, member_id: memberId }, transaction });
    if (sendIds.length === 0) return;
    // Prepared but not yet claimed by the sender: never sent now (canceled as a campaign's unsent cards are). The
    // update is conditional, as the sender's claim of the same rows is: each row goes one way.
    const canceled = await cancelUnclaimedSends(ctx, sendIds, 'the recipient was erased', transaction, ctx.now());
    // Their quota (1 each, reserved at claim for the claim's month) goes back.
    const byMonth = new Map<string, number>();
    for (const r of rows) if (r.quota_month && r.send_id && canceled.has(r.send_id)) byMonth.set(r.quota_month, (byMonth.get(r.quota_month) ?? 0) + 1);
    for (const [month, count] of byMonth) await releaseQuota(ctx, accountId, month, count, transaction);
    await redactSends(ctx, accountId, sendIds, transaction);
  }

  async function dropFromDigests(memberId: number, transaction: Transaction): Promise<void> {
    // `celebrants` is JSON written by JSON.stringify with member_id first: the LIKE only narrows, the parse decides.
    const digests = await models.AutomationSend.findAll({
      attributes: ['id', 'celebrants'],
      where: { account_id: accountId, kind: 'digest', celebrants: { [Op.like]: `%"member_id":${memberId}%` } },
      transaction,
    });
    for (const digest of digests) {
      const celebrants = JSON.parse(digest.celebrants!) as StoredCelebrant[];
      const left = celebrants.filter((c) => c.member_id !== memberId);
      if (left.length !== celebrants.length) await digest.update({ celebrants: JSON.stringify(left) }, { transaction });
    }
  }

  async function dropFromLists(memberId: number, transaction: Transaction): Promise<void> {
    const mentioned = `%${memberId}%`;
    const automations = await models.Automation.findAll({
      where: { account_id: accountId, [Op.or]: [{ selected_member_ids: { [Op.like]: mentioned } }, { notification_segment: { [Op.like]: mentioned } }] },
      transaction,
    });
    const now = ctx.now();
    for (const automation of automations) {
      const selected = parsedIds(automation.selected_member_ids);
      const segment = automation.notification_segment ? (JSON.parse(automation.notification_segment) as { member_ids: number[]; department_ids: number[] }) : null;
      const inSelected = selected.includes(memberId);
      const inSegment = segment?.member_ids.includes(memberId) ?? false;
      if (!inSelected && !inSegment) continue;
      const selectedLeft = selected.filter((id) => id !== memberId);
      await models.Automation.update(
        {
          ...(inSelected ? { selected_member_ids: JSON.stringify(selectedLeft) } : {}),
          ...(inSegment && segment ? { notification_segment: JSON.stringify({ ...segment, member_ids: segment.member_ids.filter((id) => id !== memberId) }) } : {}),
          updated_at: now,
        },
        { where: { id: automation.id }, transaction, silent: true },
      );
      // Empty member and department lists mean every active member: an automation for this member alone stops.
      if (inSelected && automation.enabled && selectedLeft.length === 0 && parsedIds(automation.selected_department_ids).length === 0) {
        const name = automation.automation_name;
        await disables.disable(
          automation,
          {
            subject: `Automation "${name}" was disabled: the members it was for were erased`,
            paragraphs: [
              `Your automation "${name}" (id ${automation.id}) was disabled because the team members it was limited to (selected_member_ids) were erased from the directory and it selects no department. Left enabled, it would have sent to every active member.`,
              'To fix it, choose its members or departments again (selected_member_ids, selected_department_ids) with POST /v2/api/automation/save; to send to every active member, simply enable it again.',
            ],
          },
          transaction,
        );
      }
    }
  }

  return {
    async erase(memberId, transaction) {
      await dropOwnRows(memberId, transaction);
      await dropFromDigests(memberId, transaction);
      await dropFromLists(memberId, transaction);
    },
    afterCommit: () => disables.afterCommit(),
  };
}
