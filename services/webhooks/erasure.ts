// A stranger's address leaves the account's webhook data (erase-address): the events that named it (an
// `ecard_shared` body's sender or recipient) lose it and the name beside it at once — later attempts send the
// redacted body — and the recorded attempts lose any response that echoed it.
import { literal, type Transaction } from 'sequelize';
import type { Models } from '../../models/index.ts';
import { scrubColumns } from '../erase-text.ts';

export async function eraseAddressFromWebhooks(models: Models, accountId: number, email: string, transaction: Transaction): Promise<void> {
  await scrubColumns(models.OutboxEvent, { account_id: accountId }, { json: ['payload'] }, email, transaction);
  const ofAccount = literal(`\`delivery_id\` IN (SELECT \`id\` FROM \`${models.WebhookDelivery.getTableName() as string}\` WHERE \`account_id\` = ${Number(accountId)})`);
  await scrubColumns(models.WebhookAttempt, ofAccount, { text: ['request_headers', 'response_body', 'error'] }, email, transaction);
}
