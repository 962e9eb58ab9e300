// The send use case, for the API's send-ecard and the console's send page: accept it (one transaction; a share
// link is published right after it), then for email-now start its workflow and wait for the dispatch, up to
// SEND_WAIT_SECONDS, while a scheduled send is handed to the process's starter and answered at once. Returns the
// send as it stands then.
import type { Attributes } from 'sequelize';
import { sha256Hex } from '../../../lib/hash.ts';
import type { Account } from '../../../models/Account.ts';
import type { Send } from '../../../models/Send.ts';
import { awaitSendResult } from '../../../workflows/send-ecard/lifecycle.ts';
import type { ServiceContext } from '../../context.ts';
import { checkOverrideTemplates } from '../../ecards/records.ts';
import { acceptSend, type SendRequest } from './accept.ts';
import { startSendWorkflows } from './start.ts';

/** A send as presenters read it: the row's values, never the model. */
export type SendView = Attributes<Send>;

// Object keys in one order, so the same body always hashes the same (Idempotency-Key checks).
const canonical = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
    : Array.isArray(value)
      ? value.map(canonical)
      : value;

/** The hash an Idempotency-Key is checked against: of the request as parsed, whatever its key order. */
export const requestHashOf = (request: unknown) => sha256Hex(JSON.stringify(canonical(request)));

export async function sendEcard(ctx: ServiceContext, account: Account, request: SendRequest): Promise<Send> {
  // overrideProps texts are checked now, not first in the worker after the send was accepted.
  checkOverrideTemplates(request.overrideProps, request.mergeTags);
  const { send, created } = await acceptSend(ctx, account, request);
  // A share link is live already (the accept published it); a scheduled send's workflow starts after the answer.
  if (created && send.mode === 'schedule') ctx.sendStarter.add(send);
  if (send.mode !== 'email') return send;
  const target = ctx.workflows;
  if (!target) {
    if (created) ctx.nudge();
    return send;
  }
  // If Temporal is unreachable now, the worker's background pass starts it: the send is committed either way.
  // A start given up on means Temporal is down: waiting on the result too would hold the answer past the start's
  // deadline (an accept took 9.5 s in the Temporal-kill drill), so the send is answered as it stands.
  const reachable = !created || (await startSendWorkflows(ctx, target, [send])) === 1;
  if (reachable && send.status === 'pending') {
    await awaitSendResult(target, send.account_id, send.send_id, ctx.config.sendWaitSeconds * 1000).catch(() => undefined);
    await send.reload();
  }
  return send;
}
