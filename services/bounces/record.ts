// What a parsed bounce does to its recipient (the one whose VERP token it came back to): `bounced_at` and the
// parsed status on the row (its status stays `sent`), the address suppressed for a hard bounce or a complaint, and
// `ecard_bounced`, all in one transaction and only by the write that changed the row, so the same report twice
// changes nothing the second time and emits once.
import { Op } from 'sequelize';
import type { BounceKind } from '../../models/SendRecipient.ts';
import type { ServiceContext } from '../context.ts';
import { outcomeTransaction, recordOutcomeEvents } from '../sends/delivery/outcome-events.ts';
import { suppressAddress } from '../sends/accept/rules.ts';
import type { BounceReport } from './report.ts';

export type BounceOutcome = 'recorded' | 'unchanged' | 'unmatched';

// A report replaces a weaker one: a hard bounce after soft ones, a complaint after either; never the other way.
const WEAKER: Record<BounceKind, BounceKind[]> = { soft: [], hard: ['soft'], complaint: ['soft', 'hard'] };

const sameMessageId = (a: string | null, b: string | null) => a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a token names a recipient (the listener's RCPT check). */
export async function isKnownBounceToken(ctx: Pick<ServiceContext, 'models'>, token: string): Promise<boolean> {
  return (await ctx.models.SendRecipient.count({ where: { bounce_token: token } })) > 0;
}

// `hard bounce 5.1.1: smtp; 550 …`, `complaint: abuse`.
function suppressionReason(report: BounceReport): string {
  const label = report.kind === 'hard' ? `hard bounce${report.status ? ` ${report.status}` : ''}` : 'complaint';
  return report.diagnostic ? `${label}: ${report.diagnostic}` : label;
}

/**
 * Records a report for the recipient of `token`. A complaint counts only when it names that recipient's email by
 * its Message-ID (a report about another message, or one whose Message-ID was removed, is `unmatched`).
 */
export async function recordBounce(ctx: ServiceContext, token: string, report: BounceReport): Promise<BounceOutcome> {
  const { models } = ctx;
  const recipient = await models.SendRecipient.findOne({ where: { bounce_token: token } });
  // Never handed to SMTP (still pending, canceled, refused before the claim): nothing of ours can have bounced.
  if (!recipient || recipient.claimed_at === null) return 'unmatched';
  if (report.kind === 'complaint' && !sameMessageId(report.originalMessageId, recipient.message_id)) return 'unmatched';
  const send = await models.Send.findByPk(recipient.send_id, { rejectOnEmpty: true });
  const now = ctx.now();
  return outcomeTransaction(ctx, send.account_id, ['ecard_bounced'], async (transaction, emits) => {
    const weaker = WEAKER[report.kind];
    const [changed] = await models.SendRecipient.update(
      { bounced_at: recipient.bounced_at ?? now, bounce_kind: report.kind, bounce_status: report.status, bounce_diagnostic: report.diagnostic },
      { where: { id: recipient.id, [Op.or]: [{ bounce_kind: { [Op.is]: null } }, ...(weaker.length ? [{ bounce_kind: weaker }] : [])] }, transaction },
    );
    if (!changed) return 'unchanged';
    if (report.kind !== 'soft' && recipient.recipient_email) await suppressAddress(ctx, send.account_id, recipient.recipient_email, suppressionReason(report), now, transaction);
    if (emits) await recordOutcomeEvents(ctx, 'ecard_bounced', [{ send, recipient: await recipient.reload({ transaction }) }], transaction);
    return 'recorded';
  });
}
