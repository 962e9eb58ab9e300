// The daily prune: rows whose only use has passed. Console sessions past their idle (30 min) or absolute (12 h)
// timeout, sign-in throttle slots whose window ended over a day ago, idempotency keys past their 24 hours. Each is
// one conditional DELETE by time, so workers running it at once delete each row once.
import { Op } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { ABSOLUTE_MS, IDLE_MS } from '../console/sessions.ts';
import { pruneSlots } from '../console/throttle.ts';
import { IDEMPOTENCY_WINDOW_MS } from '../sends/accept.ts';

export interface Pruned {
  sessions: number;
  signInSlots: number;
  idempotencyKeys: number;
}

export async function pruneExpired(ctx: Pick<ServiceContext, 'models' | 'now'>): Promise<Pruned> {
  const { models } = ctx;
  const now = ctx.now().getTime();
  const sessions = await models.ConsoleSession.destroy({
    where: { [Op.or]: [{ last_seen_at: { [Op.lt]: new Date(now - IDLE_MS) } }, { created_at: { [Op.lt]: new Date(now - ABSOLUTE_MS) } }] },
  });
  const signInSlots = await pruneSlots(models, new Date(now));
  const idempotencyKeys = await models.IdempotencyKey.destroy({ where: { created_at: { [Op.lt]: new Date(now - IDEMPOTENCY_WINDOW_MS) } } });
  return { sessions, signInSlots, idempotencyKeys };
}
