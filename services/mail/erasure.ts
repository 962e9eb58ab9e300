// A stranger's address leaves the account's own emails (erase-address): queued or sent notices to it, thank-yous
// that named it or took replies to it. A message not sent yet never goes (it is marked skipped, `erased`). The
// sandbox's outbox (the mail sink) forgets its messages that mention it.
import type { ServiceContext } from '../context.ts';
import { col, fn, Op, where, type Transaction } from 'sequelize';
import { scrubColumns } from '../erase-text.ts';

export async function eraseAddressFromMail(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string, at: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const hers = (value: string | null) => (value ?? '').toLowerCase().includes(email);
  await scrubColumns(models.MailMessage, { account_id: accountId }, { text: ['recipient', 'reply_to', 'subject', 'text_body'] }, email, transaction, (row) => ({
    // A message to or from the address (a read receipt to it, its thank-you) is about it: its subject and text name
    // it by name too, so they go.
    ...(hers(row.recipient) || hers(row.reply_to) ? { subject: '', text_body: '' } : {}),
    ...(row.sent_at ? {} : { sent_at: at, skip_reason: 'erased', text_body: '' }),
  }));
  const needle = `%${email}%`;
  await models.MailSinkMessage.destroy({
    where: { account_id: accountId, [Op.or]: ['sender', 'recipient', 'reply_to', 'subject', 'text_body', 'html_body'].map((c) => where(fn('LOWER', col(c)), { [Op.like]: needle })) },
    transaction,
  });
}
