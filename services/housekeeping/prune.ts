// The daily prune: rows whose only use has passed. Console sessions past their idle (30 min) or absolute (12 h)
// timeout, sign-in throttle slots whose window ended over a day ago, idempotency keys past their 24 hours, audit rows
// past AUDIT_RETENTION_DAYS (5,000 a statement: a first prune of a large log holds no long lock); the public
// widget's verification rows an hour after they were made (their code expired after 10 minutes, but the per-hour
// limits count them until then), its abuse log after 30 days and its per-IP send windows after a day. Each is one
// conditional DELETE by time, so workers running it at once delete each row once.
import { Op } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { pruneAuditEvents } from '../audit/query.ts';
import { ABSOLUTE_MS, IDLE_MS } from '../console/sessions.ts';
import { pruneSlots } from '../console/throttle.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../sends/accept/accept.ts';
import { ABUSE_DAYS } from '../widgets/admin/stats.ts';
import { LIMIT_WINDOW_MS } from '../widgets/public/verification.ts';

const DAY_MS = 24 * 3600 * 1000;

export interface Pruned {
  sessions: number;
  signInSlots: number;
  idempotencyKeys: number;
  widgetVerifications: number;
  widgetAbuseEvents: number;
  widgetSendWindows: number;
  auditEvents: number;
}

export async function pruneExpired(ctx: Pick<ServiceContext, 'models' | 'now' | 'config'>): Promise<Pruned> {
  const { models } = ctx;
  const now = ctx.now().getTime();
  const sessions = await models.ConsoleSession.destroy({
    where: { [Op.or]: [{ last_seen_at: { [Op.lt]: new Date(now - IDLE_MS) } }, { created_at: { [Op.lt]: new Date(now - ABSOLUTE_MS) } }] },
  });
  const signInSlots = await pruneSlots(ctx, new Date(now));
  const idempotencyKeys = await models.IdempotencyKey.destroy({ where: { created_at: { [Op.lt]: new Date(now - IDEMPOTENCY_WINDOW_MS) } } });
  const widgetVerifications = await models.WidgetVerification.destroy({ where: { created_at: { [Op.lt]: new Date(now - LIMIT_WINDOW_MS) } } });
  const widgetAbuseEvents = await models.WidgetAbuseEvent.destroy({ where: { created_at: { [Op.lt]: new Date(now - ABUSE_DAYS * DAY_MS) } } });
  const widgetSendWindows = await models.WidgetSendWindow.destroy({ where: { window_start: { [Op.lt]: new Date(now - DAY_MS) } } });
  const auditEvents = await pruneAuditEvents(ctx);
  return { sessions, signInSlots, idempotencyKeys, widgetVerifications, widgetAbuseEvents, widgetSendWindows, auditEvents };
}
