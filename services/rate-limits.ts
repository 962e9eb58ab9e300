// Per-key request limits in fixed UTC windows (a minute and an hour), counted in the database so that every
// API process shares them. A process leases counts of a key's two windows (one atomic conditional statement per
// window per lease, never a read-then-write: services/rate-limit-counters.ts) and hands them out from memory; how
// many at once is services/rate-lease.ts, blocks that shrink to 1 near a limit. A lease that fails whole falls
// back to one-by-one counts, so the limit is exact across processes. Requests of one key that arrive while its
// statement is in flight wait for it and are served together from the next lease.
// Unused counts are given back (the key's windows moved on, the lease sat idle, the process stops), so
// `usage_this_hour` counts requests served, not counts leased (docs/decisions.md, "Rate-limit leases").
import { performance } from 'node:perf_hooks';
import type { Sequelize } from 'sequelize';
import type { RateLimit } from '../lib/config.ts';
import { addToWindows, HOUR, MINUTE, takeBack, type Windows } from './rate-limit-counters.ts';
import { DEFAULT_PROCESSES, leaseSize } from './rate-lease.ts';

export interface RateDecision {
  allowed: boolean;
  /** The window with the lower remaining count (the one that refused, when refused). */
  limit: number;
  remaining: number;
  /** Seconds until that window resets. */
  resetSeconds: number;
  /** Requests counted in the current hour, this one included when allowed. */
  usageThisHour: number;
}

export interface RateLimiter {
  consume(apiKeyId: number, limits: RateLimit): Promise<RateDecision>;
  /** Gives every unused leased count back (the process stops serving). */
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  /** API processes sharing the database (RATE_LIMIT_PROCESSES); unset: DEFAULT_PROCESSES. */
  processes?: number | undefined;
}

/** A lease gone unused this long (real time) is given back. */
const IDLE_MS = 1000;

/** Counts of one key's minute and hour windows that this process holds; the next one handed out is minute + 1 and hour + 1. */
interface Lease {
  minuteStart: number;
  hourStart: number;
  limits: RateLimit;
  /** The last count handed out, in each window. */
  minute: number;
  hour: number;
  /** Counts leased and not handed out yet. */
  left: number;
}

interface Pending {
  limits: RateLimit;
  resolve(decision: RateDecision): void;
  reject(err: unknown): void;
}

interface KeyState {
  lease: Lease | null;
  /** The window counts this process's last statement for the key saw: they size its next lease. */
  seen: { minuteStart: number; hourStart: number; minute: number; hour: number } | null;
  /** Requests waiting for the key's statement; set while one runs. */
  queue: Pending[] | null;
  /** The run that serves the queue, while there is one. */
  flushing: Promise<void> | null;
  /** A lease being given back: the key's next statement waits for it, so its counts are not counted twice. */
  givingBack: Promise<void> | null;
  /** When the key last asked for a count (performance.now()). */
  lastAsked: number;
}

const secondsOf = (date: Date) => Math.floor(date.getTime() / 1000);
const windowsAt = (t: number) => ({ hourStart: t - (t % HOUR), minuteStart: t - (t % MINUTE) });
const sameLimits = (a: RateLimit, b: RateLimit) => a.perMinute === b.perMinute && a.perHour === b.perHour;

/** Whether a lease's counts can serve a request at second `t` under `limits`. */
function holds(lease: Lease, t: number, limits: RateLimit): boolean {
  const w = windowsAt(t);
  return lease.minuteStart === w.minuteStart && lease.hourStart === w.hourStart && sameLimits(lease.limits, limits);
}

function handOut(lease: Lease, t: number): RateDecision {
  lease.minute += 1;
  lease.hour += 1;
  lease.left -= 1;
  const { perMinute, perHour } = lease.limits;
  const minuteLeft = perMinute - lease.minute;
  const hourLeft = perHour - lease.hour;
  return minuteLeft <= hourLeft
    ? { allowed: true, limit: perMinute, remaining: minuteLeft, resetSeconds: lease.minuteStart + MINUTE - t, usageThisHour: lease.hour }
    : { allowed: true, limit: perHour, remaining: hourLeft, resetSeconds: lease.hourStart + HOUR - t, usageThisHour: lease.hour };
}

export function createRateLimiter(sequelize: Sequelize, now: () => Date, onError: (err: unknown) => void, options: RateLimiterOptions = {}): RateLimiter {
  const add = addToWindows(sequelize);
  const takeBackCounts = takeBack(sequelize);
  const processes = options.processes ?? DEFAULT_PROCESSES;
  const keys = new Map<number, KeyState>();

  // Runs when a key opens a new minute: its finished windows are no longer needed.
  const prune = (w: Windows) =>
    sequelize
      .query(
        `DELETE FROM rate_limit_counters WHERE api_key_id = ?
         AND ((window_seconds = ${MINUTE} AND window_start < ?) OR (window_seconds = ${HOUR} AND window_start < ?))`,
        { replacements: [w.apiKeyId, w.minuteStart, w.hourStart] },
      )
      .catch(onError);

  /** Takes the key's lease away and gives its unused counts back to the windows still current. */
  function giveBackLease(apiKeyId: number, key: KeyState): Promise<void> {
    const lease = key.lease;
    key.lease = null;
    if (!lease || lease.left === 0) return Promise.resolve();
    const current = windowsAt(secondsOf(now()));
    const windows = [
      ...(lease.hourStart === current.hourStart ? [{ seconds: HOUR, start: lease.hourStart }] : []),
      ...(lease.minuteStart === current.minuteStart ? [{ seconds: MINUTE, start: lease.minuteStart }] : []),
    ];
    return takeBackCounts(apiKeyId, windows, lease.left).catch(onError);
  }

  /**
   * Serves `n` waiting requests with new counts: one lease, or, when it does not fit whole, one count at a time
   * until a window is full (the rest are refused by that window). Counts leased beyond `n` stay with the key.
   */
  async function lease(key: KeyState, w: Windows, t: number, n: number): Promise<RateDecision[]> {
    const { limits } = w;
    const seen = key.seen;
    const counts = [
      { limit: limits.perMinute, count: seen?.minuteStart === w.minuteStart ? seen.minute : 0 },
      { limit: limits.perHour, count: seen?.hourStart === w.hourStart ? seen.hour : 0 },
    ];
    const decisions: RateDecision[] = [];
    let size = n <= Math.min(limits.perMinute, limits.perHour) ? leaseSize(n, counts, processes) : 1;
    for (;;) {
      const c = await add(w, size);
      if (c.hour !== null && c.minute !== null) {
        key.seen = { minuteStart: w.minuteStart, hourStart: w.hourStart, minute: c.minute, hour: c.hour };
        const got: Lease = { minuteStart: w.minuteStart, hourStart: w.hourStart, limits, minute: c.minute - size, hour: c.hour - size, left: size };
        if (got.minute === 0) void prune(w);
        while (decisions.length < n && got.left > 0) decisions.push(handOut(got, t));
        if (got.left > 0) key.lease = got;
        if (decisions.length === n) return decisions;
        continue;
      }
      // Counts that one window took and the other refused do not count: the window that took them gives them back.
      const took = c.hour !== null ? { seconds: HOUR, start: w.hourStart } : c.minute !== null ? { seconds: MINUTE, start: w.minuteStart } : null;
      await takeBackCounts(w.apiKeyId, took ? [took] : [], size);
      if (size > 1) {
        // The lease does not fit whole: the waiting requests alone, then one by one until a window is full.
        size = size > n ? n : 1;
        continue;
      }
      key.seen = {
        minuteStart: w.minuteStart,
        hourStart: w.hourStart,
        minute: c.minute === null ? limits.perMinute : c.minute - 1,
        hour: c.hour === null ? limits.perHour : c.hour - 1,
      };
      const refused: RateDecision =
        c.hour === null
          ? { allowed: false, limit: limits.perHour, remaining: 0, resetSeconds: w.hourStart + HOUR - t, usageThisHour: limits.perHour }
          : { allowed: false, limit: limits.perMinute, remaining: 0, resetSeconds: w.minuteStart + MINUTE - t, usageThisHour: c.hour - 1 };
      return decisions.concat(Array.from({ length: n - decisions.length }, () => refused));
    }
  }

  async function decide(apiKeyId: number, key: KeyState, n: number, limits: RateLimit): Promise<RateDecision[]> {
    if (key.givingBack) await key.givingBack;
    const t = secondsOf(now());
    if (key.lease && !holds(key.lease, t, limits)) await giveBackLease(apiKeyId, key);
    const decisions: RateDecision[] = [];
    while (decisions.length < n && key.lease && key.lease.left > 0) decisions.push(handOut(key.lease, t));
    if (decisions.length === n) return decisions;
    const w: Windows = { apiKeyId, ...windowsAt(t), limits };
    return decisions.concat(await lease(key, w, t, n - decisions.length));
  }

  async function flush(apiKeyId: number, key: KeyState, queue: Pending[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0);
      try {
        const decisions = await decide(apiKeyId, key, batch.length, batch[0]!.limits);
        batch.forEach((p, i) => p.resolve(decisions[i]!));
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    key.queue = null;
    key.flushing = null;
  }

  // Gives back the leases of keys gone quiet or whose windows moved on, and forgets keys with nothing held.
  const sweep = () => {
    const t = secondsOf(now());
    const at = performance.now();
    for (const [apiKeyId, key] of keys) {
      if (key.queue || key.givingBack) continue;
      const idle = at - key.lastAsked >= IDLE_MS;
      if (!idle && (!key.lease || holds(key.lease, t, key.lease.limits))) continue;
      key.givingBack = giveBackLease(apiKeyId, key).finally(() => {
        key.givingBack = null;
        if (idle && !key.queue && !key.lease && keys.get(apiKeyId) === key) keys.delete(apiKeyId);
      });
    }
  };
  const sweeper = setInterval(sweep, IDLE_MS);
  sweeper.unref();

  return {
    consume(apiKeyId, limits) {
      let key = keys.get(apiKeyId);
      if (!key) {
        key = { lease: null, seen: null, queue: null, flushing: null, givingBack: null, lastAsked: 0 };
        keys.set(apiKeyId, key);
      }
      key.lastAsked = performance.now();
      const t = secondsOf(now());
      const held = key.lease;
      if (!key.queue && held && held.left > 0 && holds(held, t, limits)) return Promise.resolve(handOut(held, t));
      const state = key;
      return new Promise<RateDecision>((resolve, reject) => {
        if (state.queue) {
          state.queue.push({ limits, resolve, reject });
          return;
        }
        state.queue = [{ limits, resolve, reject }];
        state.flushing = flush(apiKeyId, state, state.queue);
      });
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all(
        [...keys].map(async ([apiKeyId, key]) => {
          await key.flushing;
          await key.givingBack;
          await giveBackLease(apiKeyId, key);
        }),
      );
    },
  };
}
