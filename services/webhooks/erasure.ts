// A stranger's address leaves the account's webhook data (erase-address): the events that named it (an
// `ecard_shared` body's sender or recipient) lose it and the name beside it at once — later attempts send the
// redacted body — and the recorded attempts lose any response that echoed it.
import type { ServiceContext } from '../context.ts';
import { literal, type Transaction } from 'sequelize';
import { scrubColumns } from '../erase-text.ts';

export async function eraseAddressFromWebhooks(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  await scrubColumns(models.OutboxEvent, { account_id: accountId }, { json: ['payload'] }, email, transaction);
  const ofAccount = literal(`\`delivery_id\` IN (SELECT \`id\` FROM \`${models.WebhookDelivery.getTableName() as string}\` WHERE \`account_id\` = ${Number(accountId)})`);
  await scrubColumns(models.WebhookAttempt, ofAccount, { text: ['request_headers', 'response_body', 'error'] }, email, transaction);
}
