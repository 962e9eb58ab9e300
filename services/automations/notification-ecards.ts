// The eCards of an automation's notifications (manager, department, segment digests): a type is on only while it
// has eCards. Stored as automation_ecards rows with the type as role.
import { NOTIFICATION_TYPES, type NotificationType } from '../../models/AutomationEcard.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { checkReferences, findAutomation, replaceEcardRefs } from './automations.ts';

export interface NotificationEcards {
  automation_id: number;
  notification_type: NotificationType;
  ecard_ids: number[];
}

export async function getNotificationEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, automationId: number, type: NotificationType): Promise<NotificationEcards> {
  const config = await findAutomation(ctx, accountId, automationId);
  return { automation_id: config.row.id, notification_type: type, ecard_ids: config.notification_ecards[type] };
}

/** Replaces the type's eCards (the account's, outside campaigns; else 404 with nothing saved). */
export async function saveNotificationEcards(
  ctx: ServiceContext,
  accountId: number,
  automationId: number,
  type: NotificationType,
  ecardIds: readonly number[],
): Promise<NotificationEcards> {
  return accountTransaction(ctx, accountId, async (transaction) => {
    const config = await findAutomation(ctx, accountId, automationId, transaction);
    await checkReferences(ctx, accountId, { ecards: ecardIds }, transaction);
    await replaceEcardRefs(ctx, config.row, type, [ecardIds], transaction);
    config.row.changed('updated_at', true);
    await config.row.save({ transaction });
    const saved = await findAutomation(ctx, accountId, automationId, transaction);
    return { automation_id: saved.row.id, notification_type: type, ecard_ids: saved.notification_ecards[type] };
  });
}

/** Clears the type's eCards, or every type's; answers the types that had any. */
export async function deleteNotificationEcards(
  ctx: ServiceContext,
  accountId: number,
  automationId: number,
  type: NotificationType | undefined,
): Promise<{ deleted: NotificationType[] }> {
  const { models } = ctx;
  return accountTransaction(ctx, accountId, async (transaction) => {
    const config = await findAutomation(ctx, accountId, automationId, transaction);
    const types = type ? [type] : [...NOTIFICATION_TYPES];
    const deleted = types.filter((t) => config.notification_ecards[t].length > 0);
    if (deleted.length) {
      await models.AutomationEcard.destroy({ where: { automation_id: config.row.id, role: deleted }, transaction });
      config.row.changed('updated_at', true);
      await config.row.save({ transaction });
    }
    return { deleted };
  });
}
