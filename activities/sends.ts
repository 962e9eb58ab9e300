// The send workflow's activities: thin wrappers over services/sends/delivery/dispatch.ts.
import type { ServiceContext } from '../services/context.ts';
import { dispatchSend, failSend, type SendOutcome } from '../services/sends/delivery/dispatch.ts';
import { DISPATCH_ATTEMPTS } from '../workflows/send-ecard/contract.ts';
import { currentAttempt } from './attempt.ts';

export function createSendActivities(ctx: ServiceContext) {
  return {
    async dispatchSend(input: { sendPk: number }): Promise<SendOutcome> {
      // On the last try a temporary SMTP failure becomes the recipient's failure instead of another retry.
      return dispatchSend(ctx, input.sendPk, currentAttempt(DISPATCH_ATTEMPTS));
    },
    async failSend(input: { sendPk: number; reason: string }): Promise<SendOutcome> {
      return failSend(ctx, input.sendPk, input.reason);
    },
  };
}
