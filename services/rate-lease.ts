// How many counts a process leases at once for one key (docs/decisions.md, "Rate-limit leases").
// A lease takes the same number of counts from the key's minute and hour windows in one conditional statement each,
// and the process hands them out from memory. Counts it leased beyond the requests waiting are a bet that more will
// come to this process; when they do not (the key's traffic goes to another process), they are held until the lease
// is given back, so blocks stay small and shrink to 1 near a window's limit, where other processes need them.

/** A block is at most this share of a window's limit: 120 a minute leases one by one, 1,000 by 10. */
export const BLOCK_SHARE_OF_LIMIT = 1 / 100;
/** ... and at most this many counts: a busy key (100,000 a minute) writes once per 1,000 requests (at 100, the
 * requests waiting for each lease cost a fifth of the limiter-on rate in P6 on a quiet machine). */
export const MAX_BLOCK = 1000;
/** API processes assumed when RATE_LIMIT_PROCESSES is unset. */
export const DEFAULT_PROCESSES = 2;

/** The block of a window with this limit, before it shrinks near the limit. */
export function blockOf(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit * BLOCK_SHARE_OF_LIMIT)));
}

/**
 * The counts to lease for `waiting` requests: the waiting requests themselves, or a block if that is more. Each
 * window's block shrinks to 1 once its remaining count (its limit less the count this process last saw) is below
 * processes × block, so near the limit a process leases only what it serves at once and every process can still
 * get the counts that are left.
 */
export function leaseSize(waiting: number, windows: ReadonlyArray<{ limit: number; count: number }>, processes: number): number {
  const block = Math.min(
    ...windows.map(({ limit, count }) => {
      const size = blockOf(limit);
      return limit - count >= processes * size ? size : 1;
    }),
  );
  return Math.max(waiting, block);
}
