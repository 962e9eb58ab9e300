// A person's own console sessions: the list (with where and in what each was opened), ending one, ending every other.
// Only the person's own sessions are reachable: another's public id is "not found".
import { Op } from 'sequelize';
import { notFound } from '../../lib/errors.ts';
import type { ConsoleSession } from '../../models/ConsoleSession.ts';
import type { ServiceContext } from '../context.ts';
import { ABSOLUTE_MS, IDLE_MS } from './sessions.ts';

export interface SessionView {
  id: string;
  current: boolean;
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
  account_id: number;
  mode: 'live' | 'sandbox';
}

/** The person's sessions still alive (not idle, not too old), the newest first; `current` marks the one asking. */
export async function listSessions(ctx: Pick<ServiceContext, 'models' | 'now'>, current: ConsoleSession): Promise<SessionView[]> {
  const now = ctx.now().getTime();
  const rows = await ctx.models.ConsoleSession.findAll({
    // `owner_id` holds the user's id (models/ConsoleSession.ts).
    where: { owner_id: current.owner_id, last_seen_at: { [Op.gt]: new Date(now - IDLE_MS) }, created_at: { [Op.gt]: new Date(now - ABSOLUTE_MS) } },
    order: [['created_at', 'DESC'], ['id', 'DESC']],
  });
  return rows.map((s) => ({
    id: s.public_id,
    current: s.id === current.id,
    created_at: s.created_at.toISOString(),
    last_seen_at: s.last_seen_at.toISOString(),
    ip: s.ip ?? null,
    user_agent: s.user_agent ?? null,
    account_id: s.account_id,
    mode: s.mode,
  }));
}

/** Ends one of the person's sessions (their current one too: that is signing out); another's or an unknown id → 404. */
export async function revokeSession(ctx: Pick<ServiceContext, 'models'>, current: ConsoleSession, publicId: string): Promise<void> {
  const ended = await ctx.models.ConsoleSession.destroy({ where: { owner_id: current.owner_id, public_id: publicId } });
  if (ended === 0) throw notFound('No session of yours has this id');
}

/** Ends every session of the person but this one: how many ended. */
export async function revokeOtherSessions(ctx: Pick<ServiceContext, 'models'>, current: ConsoleSession): Promise<number> {
  return ctx.models.ConsoleSession.destroy({ where: { owner_id: current.owner_id, id: { [Op.ne]: current.id } } });
}
