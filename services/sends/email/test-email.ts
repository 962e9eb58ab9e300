// "Send me a test": an eCard's real email (HTML and text, as a send renders it now, with the sample merge values and
// the `[Preview]` subject) queued in mail_queue for the owner or another address. No send is made: no quota, no
// usage, no webhook; a sandbox account's test goes to its outbox, as all its queued mail does. At most TESTS_PER_HOUR an
// account: a test may go to any address, and the service must not become a way to mail a list.
import { Op } from 'sequelize';
import { rateLimited } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { SAMPLE, previewEcardDesign, previewPageUrl, sampleSend } from '../../console/previews.ts';
import type { ServiceContext } from '../../context.ts';
import { ownerEmail } from '../../owner-mail.ts';
import { renderEmail } from './email.ts';
import { blockedRecipient } from '../accept/rules.ts';

/** Tests an account may queue in an hour: plenty for designing, too few to mail a list through the service. */
export const TESTS_PER_HOUR = 20;

export interface TestEmail {
  /** False: the address is on the account's suppression list (recorded as skipped, never sent). */
  queued: boolean;
  email: string;
}

/** Queues the test of eCard `ecardId` (another account's is 404) to `email`, or to the account's owner. */
export async function queueTestEmail(ctx: ServiceContext, account: Account, ecardId: number, email?: string): Promise<TestEmail> {
  const { models } = ctx;
  const design = await previewEcardDesign(ctx, account.id, { ecardId });
  const at = ctx.now();
  const recent = await models.MailMessage.count({ where: { account_id: account.id, kind: 'ecard_test', created_at: { [Op.gte]: new Date(at.getTime() - 3_600_000) } } });
  if (recent >= TESTS_PER_HOUR) throw rateLimited(`At most ${TESTS_PER_HOUR} test emails an hour; try again later`);
  const owner = await ownerEmail(ctx, account.id);
  const to = (email ?? owner ?? '').toLowerCase();
  // The owner of every account is known; an account without one has nobody to send a test to by default.
  if (!to) return { queued: false, email: '' };
  // The owner's console shows the card page this email's button leads to.
  const link = previewPageUrl(ctx.config.publicBaseUrl, ecardId);
  const { send, recipient } = sampleSend(design, { name: SAMPLE.senderName, email: owner ?? SAMPLE.senderEmail }, link);
  const mail = await renderEmail(send, design, recipient, link);
  const suppressed = (await blockedRecipient(ctx, account.id, [to])) !== null;
  await models.MailMessage.create({
    account_id: account.id,
    kind: 'ecard_test',
    recipient: to,
    subject: mail.subject.slice(0, 500),
    text_body: suppressed ? '' : mail.text,
    html_body: suppressed ? null : mail.html,
    created_at: at,
    ...(suppressed ? { sent_at: at, skip_reason: 'suppressed' } : {}),
  });
  if (!suppressed) ctx.nudge();
  return { queued: !suppressed, email: to };
}
