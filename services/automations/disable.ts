// Automations disabled as a side effect of another change (their eCards deleted, the members they were limited
// to erased): in that change's transaction each is disabled and its owner emailed why and how to fix it; after
// the commit their Schedules are made to match (paused). The caller holds the account's lock (account row first).
import type { Transaction } from 'sequelize';
import type { Automation } from '../../models/Automation.ts';
import type { ServiceContext } from '../context.ts';
import { queueOwnerNotice } from '../owner-mail.ts';
import { syncAutomationSchedule } from './schedule.ts';

export interface AutomationDisables {
  /** Disables the automation if it is still enabled, and queues the owner's notice (kind `automation_disabled`). */
  disable(automation: Pick<Automation, 'id' | 'automation_name'>, notice: { subject: string; paragraphs: string[] }, transaction: Transaction): Promise<void>;
  /** After the commit (never inside the transaction: Temporal may be slow or down): syncs each disabled one's Schedule. */
  afterCommit(): Promise<void>;
}

/** What the owner can do about it, the same whatever disabled the automation. */
export const HOW_TO_ENABLE_AGAIN =
  'Nothing is sent while it is disabled. Enable it again with POST /v2/api/automation/toggle ({ "automation": { "id": ID, "enabled": true } }) once it is fixed; cards due while it was disabled are not sent afterwards.';

export function automationDisables(ctx: ServiceContext, accountId: number): AutomationDisables {
  const disabled = new Set<number>();
  return {
    async disable(automation, notice, transaction) {
      const now = ctx.now();
      const [changed] = await ctx.models.Automation.update(
        { enabled: false, updated_at: now },
        { where: { id: automation.id, account_id: accountId, enabled: true }, transaction, silent: true },
      );
      if (changed === 0) return;
      disabled.add(automation.id);
      await queueOwnerNotice(
        ctx,
        accountId,
        { kind: 'automation_disabled', subject: notice.subject, paragraphs: [...notice.paragraphs, HOW_TO_ENABLE_AGAIN.replace('ID', String(automation.id))] },
        now,
        transaction,
      );
    },
    async afterCommit() {
      for (const id of disabled) await syncAutomationSchedule(ctx, accountId, id);
    },
  };
}
