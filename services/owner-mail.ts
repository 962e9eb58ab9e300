// Emails to an account's owner (notices: a paused webhook endpoint, an automation disabled or refused by the
// quota) or to one of its people (their role changed, their removal), queued in mail_queue in the caller's transaction and sent by the mail queue's background pass.
import type { ServiceContext } from './context.ts';
import type { Transaction } from 'sequelize';
import { accountOwner } from './owners.ts';

/** The owner's email (`accounts.owner_user_id`); a sandbox account's owner is its live account's. */
export async function ownerEmail(ctx: Pick<ServiceContext, 'models'>, accountId: number, transaction?: Transaction): Promise<string | null> {
  return (await accountOwner(ctx, accountId, transaction))?.email ?? null;
}

export interface OwnerNotice {
  /** What the notice is about (mail_queue.kind), e.g. `automation_disabled`. */
  kind: string;
  subject: string;
  /** Paragraphs of the plain-text body. */
  paragraphs: string[];
}

/** Queues the notice; false when the account has no owner to tell. */
export async function queueOwnerNotice(ctx: Pick<ServiceContext, 'models'>, accountId: number, notice: OwnerNotice, at: Date, transaction?: Transaction): Promise<boolean> {
  const recipient = await ownerEmail(ctx, accountId, transaction);
  if (!recipient) return false;
  await queueNotice(ctx, { accountId, recipient }, notice, at, transaction);
  return true;
}

/** Queues a notice to one person: of an account (a member told of a change to their place in it), or of none (their own password). */
export async function queueNotice(ctx: Pick<ServiceContext, 'models'>, to: { accountId: number | null; recipient: string }, notice: OwnerNotice, at: Date, transaction?: Transaction): Promise<void> {
  await ctx.models.MailMessage.create(
    { account_id: to.accountId, kind: notice.kind, recipient: to.recipient, subject: notice.subject.slice(0, 500), text_body: notice.paragraphs.join('\n\n'), created_at: at },
    transaction ? { transaction } : {},
  );
}
