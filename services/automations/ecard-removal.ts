// Deleting eCards (or widgets, whose eCards go with them) takes them out of the automations referring to them, in
// the delete's own transaction and before the eCard rows go (the foreign key would drop the references silently):
// an enabled automation left without an eCard to send is disabled and its owner emailed; after the commit its
// Schedule is paused.
import type { Transaction } from 'sequelize';
import { loadConfigs } from './config.ts';
import type { ServiceContext } from '../context.ts';
import { lockAccount } from '../account-lock.ts';
import { automationDisables } from './disable.ts';
import { hasEcards } from './validate.ts';

export interface AutomationEcardRemoval {
  /** In the delete's transaction, before the eCards are destroyed. */
  remove(target: { ecardIds: number[] } | { widgetIds: number[] }, transaction: Transaction): Promise<void>;
  /** After the delete committed: the Schedules of the automations it disabled. */
  afterCommit(): Promise<void>;
}

export function automationEcardRemoval(ctx: ServiceContext, accountId: number): AutomationEcardRemoval {
  const { models } = ctx;
  const disables = automationDisables(ctx, accountId);
  return {
    async remove(target, transaction) {
      await lockAccount(ctx, accountId, transaction);
      const ecardIds = 'ecardIds' in target
        ? target.ecardIds
        : (await models.Ecard.findAll({ attributes: ['id'], where: { account_id: accountId, widget_id: target.widgetIds }, transaction })).map((e) => e.id);
      if (ecardIds.length === 0) return;
      const refs = await models.AutomationEcard.findAll({ where: { account_id: accountId, ecard_id: ecardIds }, transaction });
      if (refs.length === 0) return;
      const automationIds = [...new Set(refs.map((r) => r.automation_id))];
      const names = new Map(
        (await models.Ecard.findAll({ attributes: ['id', 'name'], where: { id: [...new Set(refs.map((r) => r.ecard_id))] }, transaction })).map((e) => [e.id, e.name]),
      );
      await models.AutomationEcard.destroy({ where: { account_id: accountId, ecard_id: ecardIds }, transaction });
      // Their eCard lists changed: they show a new updatedat.
      await models.Automation.update({ updated_at: ctx.now() }, { where: { id: automationIds, account_id: accountId }, transaction, silent: true });

      const rows = await models.Automation.findAll({ where: { id: automationIds, account_id: accountId, enabled: true }, transaction });
      for (const config of await loadConfigs(ctx, rows, transaction)) {
        if (hasEcards({ ...config, event_type: config.row.event_type }, () => true)) continue;
        const name = config.row.automation_name;
        const removed = [...new Set(refs.filter((r) => r.automation_id === config.row.id).map((r) => r.ecard_id))]
          .map((id) => `"${names.get(id) ?? ''}" (id ${id})`)
          .join(', ');
        await disables.disable(
          config.row,
          {
            subject: `Automation "${name}" was disabled: its eCards were deleted`,
            paragraphs: [
              `Your automation "${name}" (id ${config.row.id}) was disabled because eCards it sent were deleted: ${removed}. It has no eCard left to send.`,
              'To fix it, choose other eCards for it: selected_ecard_ids (or each milestone rule\'s ecard_ids) with POST /v2/api/automation/save.',
            ],
          },
          transaction,
        );
      }
    },
    afterCommit: () => disables.afterCommit(),
  };
}
