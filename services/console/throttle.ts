// The password throttle of the console (sign-in, step-up, the password change's current password): an attempt
// takes its slot before the password is checked, each slot one conditional UPDATE, so forty guesses in parallel
// are counted as forty, not as the failures written after forty checks. Counted per (client IP, email): 5 in 15
// minutes; and per email from every IP: 100 an hour. A success gives its slots back.
import { literal, Op } from 'sequelize';
import { type ApiError, signInThrottled } from '../../lib/errors.ts';
import type { ServiceContext } from '../context.ts';

interface Window {
  max: number;
  ms: number;
}

export const PER_PAIR: Window = { max: 5, ms: 15 * 60_000 };
export const PER_EMAIL: Window = { max: 100, ms: 60 * 60_000 };

/** The slots one attempt took: given back by `attemptSucceeded`. */
export interface Attempt {
  pairKey: string;
  emailKey: string;
}

/** Takes one attempt of the slot's window (a new window when the last one ended); null when taken, else seconds to wait. */
async function take(ctx: Pick<ServiceContext, 'models'>, key: string, window: Window, now: Date): Promise<number | null> {
  const { models } = ctx;
  const ended = new Date(now.getTime() - window.ms);
  // Made on first use by an upsert (never INSERT IGNORE, whose shared lock two attempts would both upgrade).
  await models.SignInSlot.bulkCreate([{ slot_key: key, attempts: 0, window_start: now }], { updateOnDuplicate: ['slot_key'] });
  const [renewed] = await models.SignInSlot.update({ attempts: 1, window_start: now }, { where: { slot_key: key, window_start: { [Op.lte]: ended } } });
  if (renewed) return null;
  const [counted] = await models.SignInSlot.update(
    { attempts: literal('attempts + 1') },
    { where: { slot_key: key, window_start: { [Op.gt]: ended }, attempts: { [Op.lt]: window.max } } },
  );
  if (counted) return null;
  const slot = await models.SignInSlot.findByPk(key);
  return slot ? Math.max(1, Math.ceil((slot.window_start.getTime() + window.ms - now.getTime()) / 1000)) : 1;
}

function throttled(retryAfter: number): ApiError {
  return signInThrottled(`Too many password attempts; try again in ${retryAfter} s`, { headers: { 'Retry-After': String(retryAfter) } });
}

/** Before a password is checked: the attempt's slots, or 429 with Retry-After. */
export async function takeAttempt(ctx: Pick<ServiceContext, 'models' | 'now'>, email: string, clientIp: string): Promise<Attempt> {
  const attempt = { pairKey: `pair:${clientIp} ${email}`, emailKey: `email:${email}` };
  const now = ctx.now();
  const pairWait = await take(ctx, attempt.pairKey, PER_PAIR, now);
  if (pairWait !== null) throw throttled(pairWait);
  const emailWait = await take(ctx, attempt.emailKey, PER_EMAIL, now);
  if (emailWait !== null) throw throttled(emailWait);
  return attempt;
}

/** The password was right: its pair starts afresh, and the email's count gives back this attempt. */
export async function attemptSucceeded(ctx: Pick<ServiceContext, 'models'>, attempt: Attempt): Promise<void> {
  const { models } = ctx;
  await models.SignInSlot.destroy({ where: { slot_key: attempt.pairKey } });
  await models.SignInSlot.update({ attempts: literal('attempts - 1') }, { where: { slot_key: attempt.emailKey, attempts: { [Op.gt]: 0 } } });
}

/** Slots whose window ended a day ago or more (the daily prune). */
export async function pruneSlots(ctx: Pick<ServiceContext, 'models'>, now: Date): Promise<number> {
  const { models } = ctx;
  const longest = Math.max(PER_PAIR.ms, PER_EMAIL.ms);
  return models.SignInSlot.destroy({ where: { window_start: { [Op.lt]: new Date(now.getTime() - longest - 24 * 3_600_000) } } });
}
