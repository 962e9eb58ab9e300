// Starting send workflows: starts are sent at once and the started sends marked with one UPDATE. The API starts an
// email-now send's workflow before answering (it waits for the dispatch) and hands the others to its per-process
// starter (./starter.ts); a background pass starts any committed send whose start never happened (the
// API process died in between, Temporal was down, or the starter was closed with sends queued). Starting is
// idempotent (reject-duplicate ids), so a send the starter is starting right now is safe too; the pass leaves a
// send alone for STARTER_GRACE_MS after its commit, so the two do not both start every send of a busy API.
import { Op } from 'sequelize';
import type { WorkflowTarget } from '../../../workflows/shared/start.ts';
import { startSendWorkflow } from '../../../workflows/send-ecard/lifecycle.ts';
import type { ServiceContext, StartableSend } from '../../context.ts';

const SWEEP_BATCH = 100;

/** How long after its commit a send is its API's starter's; the sweeper starts it after that. */
export const STARTER_GRACE_MS = 10_000;

/** Starts one send's workflow (a start that finds it started is a success). */
export async function startSendWorkflowOf(ctx: ServiceContext, target: WorkflowTarget, send: StartableSend): Promise<void> {
  await startSendWorkflow(target, send.account_id, send.send_id, send.status, { sendPk: send.id, sendAtMs: send.send_at.getTime(), heartbeatSeconds: ctx.config.heartbeatSeconds });
}

/** Marks started sends with one UPDATE (a mark lost only makes the sweeper start them again, which finds them started). */
export async function markSendsStarted(ctx: ServiceContext, sendPks: readonly number[]): Promise<void> {
  if (sendPks.length) await ctx.models.Send.update({ workflow_started: true }, { where: { id: [...sendPks] } });
}

/**
 * Starts every send's workflow (all in flight at once), then marks the ones that started with one UPDATE; a start
 * that failed is logged and left to the sweeper. Returns how many started.
 */
export async function startSendWorkflows(ctx: ServiceContext, target: WorkflowTarget, sends: readonly StartableSend[]): Promise<number> {
  if (sends.length === 0) return 0;
  const outcomes = await Promise.allSettled(sends.map((send) => startSendWorkflowOf(ctx, target, send)));
  const started = sends.filter((_, i) => outcomes[i]!.status === 'fulfilled').map((send) => send.id);
  const failed = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  if (failed.length) ctx.logger.warn({ err: failed[0], failed: failed.length, of: sends.length }, 'send workflows not started yet (the sweeper starts them)');
  await markSendsStarted(ctx, started);
  return started.length;
}

/** One background pass; true when there may be more. */
export async function startUnstartedSends(ctx: ServiceContext): Promise<boolean> {
  const target = ctx.workflows;
  if (!target) return false;
  const sends = await ctx.models.Send.findAll({
    where: {
      workflow_started: false,
      status: ['scheduled', 'pending'],
      origin: ['single', 'widget'],
      created_at: { [Op.lt]: new Date(ctx.now().getTime() - STARTER_GRACE_MS) },
    },
    order: [['id', 'ASC']],
    limit: SWEEP_BATCH,
    attributes: ['id', 'account_id', 'send_id', 'status', 'send_at'],
  });
  const started = await startSendWorkflows(ctx, target, sends);
  // A batch with failures (Temporal down) waits for the next sweep rather than being tried again at once.
  return sends.length === SWEEP_BATCH && started === sends.length;
}
