// Starting send workflows: the API starts each accepted send's workflow after its commit; a background pass
// starts any committed send whose start never happened (the API process died in between, or Temporal was down).
// Starting is idempotent (reject-duplicate ids), so a send the API is starting right now is safe too.
import type { WorkflowTarget } from '../../workflows/shared/start.ts';
import { startSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import type { ServiceContext } from '../context.ts';

const BATCH = 100;

export async function startSendWorkflowOf(ctx: ServiceContext, target: WorkflowTarget, sendPk: number): Promise<void> {
  const send = await ctx.models.Send.findByPk(sendPk, { rejectOnEmpty: true });
  await startSendWorkflow(target, send.account_id, send.send_id, send.status, { sendPk: send.id, sendAtMs: send.send_at.getTime(), heartbeatSeconds: ctx.config.heartbeatSeconds });
  await ctx.models.Send.update({ workflow_started: true }, { where: { id: send.id } });
}

/** One background pass; true when there may be more. */
export async function startUnstartedSends(ctx: ServiceContext): Promise<boolean> {
  const target = ctx.workflows;
  if (!target) return false;
  const sends = await ctx.models.Send.findAll({
    where: { workflow_started: false, status: ['scheduled', 'pending'], origin: ['single', 'widget'] },
    order: [['id', 'ASC']],
    limit: BATCH,
    attributes: ['id'],
  });
  for (const send of sends) await startSendWorkflowOf(ctx, target, send.id);
  return sends.length === BATCH;
}
