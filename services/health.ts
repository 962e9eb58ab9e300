// Readiness: can this process reach its database and its Temporal namespace right now?
import type { Connection } from '@temporalio/client';
import { describeNamespace } from '../lib/temporal.ts';
import type { ServiceContext } from './context.ts';

export const READINESS_DEADLINE_MS = 2000;

export type CheckResult = 'ok' | 'unavailable';

async function withDeadline(work: Promise<unknown>, ms: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error('deadline exceeded')), ms);
  });
  try {
    await Promise.race([work, deadline]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

/** Both checks run at once, each within the deadline; readiness does not depend on a worker. `probe` is a connection made for it. */
export async function checkReadiness(ctx: Pick<ServiceContext, 'models' | 'config'>, probe: Connection) {
  const [database, temporal] = await Promise.all([
    withDeadline(ctx.models.sequelize.query('SELECT 1'), READINESS_DEADLINE_MS),
    // The gRPC deadline ends the call itself (and its retries); the outer race is only a backstop.
    withDeadline(describeNamespace(probe, ctx.config.temporal.namespace, READINESS_DEADLINE_MS), READINESS_DEADLINE_MS + 1000),
  ]);
  return { ready: database === 'ok' && temporal === 'ok', checks: { database, temporal } };
}
