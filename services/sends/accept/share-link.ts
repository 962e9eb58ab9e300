// A share link goes live: its recipient's card rendered from the send's snapshot, then the recipient and the send
// marked `sent` in one transaction. The accept does it right after its commit, with no workflow, so the link works
// the moment it is answered; the send workflow's activity does it for a share link whose workflow was started
// before this existed (a run in flight) or whose accept died between its commit and this (the sweeper starts its
// workflow). A share link emails nobody: the send's emails_sent stays 0 and the recipient's finished_at null, so
// the log's sent_at stays null for it. As when the dispatch ended a share link, only the update that ended the send
// emits, and only ecard_failed, for a recipient whose card the template rules refused at render.
import type { Transaction } from 'sequelize';
import { ApiError } from '../../../lib/errors.ts';
import { writeTransaction } from '../../../lib/db.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';
import { outcomeTransaction, recordOutcomeEvents } from '../delivery/outcome-events.ts';
import { recipientUrl } from '../card-page/pages.ts';
import { renderCard } from '../card-page/render.ts';
import type { EcardDesign } from './snapshot.ts';

/** What publishing reads of a recipient: the accept's new row, or one read back by the activity. */
export type ShareRecipient = Pick<SendRecipient, 'position' | 'recipient_name' | 'recipient_email' | 'page_id' | 'status' | 'rendered_html'>;

type Change = Partial<Pick<SendRecipient, 'status' | 'rendered_subject' | 'rendered_header' | 'rendered_html' | 'error' | 'finished_at'>>;

/** A pending recipient's change: its card (unless a try before rendered it), or its failure at render. */
function changeOf(ctx: ServiceContext, send: Send, design: EcardDesign, recipient: ShareRecipient): Change {
  if (recipient.rendered_html !== null) return { status: 'sent' };
  try {
    const card = renderCard(send, design, recipient, recipientUrl(ctx.config.publicBaseUrl, send, recipient));
    return { status: 'sent', rendered_subject: card.subject.slice(0, 1000), rendered_header: card.header.slice(0, 1000), rendered_html: card.html };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: 'failed', error: `${err.code}: ${err.message}`.slice(0, 1000), finished_at: ctx.now() };
  }
}

/** Publishes the share link (safe to run again: every write is conditional on what it changes). */
export async function publishShareLink(ctx: ServiceContext, send: Send, design: EcardDesign, recipients: readonly ShareRecipient[]): Promise<void> {
  const { models } = ctx;
  const changes = recipients.filter((r) => r.status === 'pending').map((r) => ({ position: r.position, change: changeOf(ctx, send, design, r) }));
  const anyFailed = recipients.some((r) => r.status === 'failed') || changes.some((c) => c.change.status === 'failed');
  const publish = async (transaction: Transaction, emits: boolean) => {
    for (const { position, change } of changes) {
      await models.SendRecipient.update(change, { where: { send_id: send.id, position, status: 'pending' }, transaction });
    }
    const failed = anyFailed ? await models.SendRecipient.findAll({ where: { send_id: send.id, status: 'failed' }, order: [['position', 'ASC']], transaction }) : [];
    const error = failed[0]?.error ?? null;
    const [ended] = await models.Send.update({ status: 'sent', error }, { where: { id: send.id, status: 'pending' }, transaction });
    if (ended && emits) await recordOutcomeEvents(ctx, 'ecard_failed', failed.map((recipient) => ({ send, recipient })), transaction);
    return { ended: ended === 1, error };
  };
  // Without a failure nothing can be emitted: a plain transaction, no look-up of subscriptions, no account lock.
  const { ended, error } = anyFailed ? await outcomeTransaction(ctx, send.account_id, ['ecard_failed'], publish) : await writeTransaction(models.sequelize, (t) => publish(t, false));
  if (ended) send.set({ status: 'sent', error });
}
