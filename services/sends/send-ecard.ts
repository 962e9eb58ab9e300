// The send use case, for the API's send-ecard and whatever else sends one card (the console, later): accept it
// (one transaction), start its workflow, and for email-now and share links wait for the dispatch, up to
// SEND_WAIT_SECONDS. Returns the send as it stands then.
import { sha256Hex } from '../../lib/hash.ts';
import type { Account } from '../../models/Account.ts';
import type { Send } from '../../models/Send.ts';
import { awaitSendResult } from '../../workflows/send-ecard/lifecycle.ts';
import type { ServiceContext } from '../context.ts';
import { checkOverrideTemplates } from '../ecards.ts';
import { acceptSend, type SendRequest } from './accept.ts';
import { startSendWorkflowOf } from './start.ts';

export type { Send };

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
  const target = ctx.workflows;
  let reachable = Boolean(target);
  if (target && created) {
    // If Temporal is unreachable now, the worker's background pass starts it: the send is committed either way.
    await startSendWorkflowOf(ctx, target, send.id).catch((err: unknown) => {
      reachable = false;
      ctx.logger.warn({ err, sendId: send.send_id }, 'send workflow not started yet');
    });
  } else if (created) {
    ctx.nudge();
  }
  // A start given up on means Temporal is down: waiting on the result too would hold the answer past the start's
  // deadline (an accept took 9.5 s in the Temporal-kill drill), so the send is answered as it stands.
  if (target && reachable && send.mode !== 'schedule' && (send.status === 'pending' || send.status === 'scheduled')) {
    await awaitSendResult(target, send.account_id, send.send_id, ctx.config.sendWaitSeconds * 1000).catch(() => undefined);
    await send.reload();
  }
  return send;
}
