// Starts the workflow of every committed send whose start never happened (the API process died in between);
// starting is idempotent (reject-duplicate ids), so a send the API is starting right now is safe too.
import type { Models } from '../../models/index.ts';
import { startSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import type { WorkflowTarget } from '../../workflows/webhook-delivery/lifecycle.ts';

const BATCH = 100;

export async function startSendWorkflowOf(models: Models, target: WorkflowTarget, sendPk: number): Promise<void> {
  const send = await models.Send.findByPk(sendPk, { rejectOnEmpty: true });
  await startSendWorkflow(target, send.account_id, send.send_id, send.status, { sendPk: send.id, sendAtMs: send.send_at.getTime() });
  await models.Send.update({ workflow_started: true }, { where: { id: send.id } });
}

/** One pass; true when there may be more. */
export async function startUnstartedSends(models: Models, target: WorkflowTarget): Promise<boolean> {
  const sends = await models.Send.findAll({
    where: { workflow_started: false, status: ['scheduled', 'pending'] },
    order: [['id', 'ASC']],
    limit: BATCH,
    attributes: ['id'],
  });
  for (const send of sends) await startSendWorkflowOf(models, target, send.id);
  return sends.length === BATCH;
}
