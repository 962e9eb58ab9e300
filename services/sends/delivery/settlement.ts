// One delivery settlement for every email of a send, single (dispatch.ts) or bulk (bulk-send/deliver.ts): what the
// transport's answer means for the recipient (sent; failed, with the reason kept; or tried again), and the release of
// claims SMTP never took. A claim is written before SMTP is asked, so a claim without a result is never sent again.
import type { ServiceContext } from '../../context.ts';
import type { MailError } from '../../mail/transport.ts';
import { OUTCOME_UNKNOWN } from './delivery.ts';

export type Settlement = { outcome: 'sent' } | { outcome: 'retry' } | { outcome: 'failed'; error: string };

/**
 * The transport's answer for one email (null: SMTP took it). A temporary refusal is tried again unless this is the
 * last try; an answer that never came is `unknown` (the email may have left: never sent again).
 */
export function settlementOf(result: MailError | null, lastTry: boolean): Settlement {
  if (!result) return { outcome: 'sent' };
  if (result.kind === 'retryable' && !lastTry) return { outcome: 'retry' };
  return { outcome: 'failed', error: result.kind === 'unknown' ? `${OUTCOME_UNKNOWN} (${result.message})` : result.message };
}

/** SMTP never took these recipients' emails: their claims are freed so the activity's retry sends them. */
export async function releaseClaims(ctx: Pick<ServiceContext, 'models'>, recipientIds: number[]): Promise<void> {
  if (recipientIds.length === 0) return;
  await ctx.models.SendRecipient.update({ claim_token: null, claimed_at: null }, { where: { id: recipientIds } });
}
