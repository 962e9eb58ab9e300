// Emails to account owners about their webhooks, queued for the mail transport.
import type { Transaction } from 'sequelize';
import type { Models } from '../../models/index.ts';

/** The owner of an account; a sandbox account's owner is its live account's. */
async function ownerEmail(models: Models, accountId: number, transaction: Transaction): Promise<string | null> {
  const account = await models.Account.findByPk(accountId, { transaction });
  const ownerAccountId = account?.live_account_id ?? accountId;
  const owner = await models.Owner.findOne({ where: { account_id: ownerAccountId }, order: [['id', 'ASC']], transaction });
  return owner?.email ?? null;
}

export async function notifyEndpointPaused(models: Models, endpointId: number, reason: string, at: Date, transaction: Transaction): Promise<void> {
  const endpoint = await models.WebhookEndpoint.findByPk(endpointId, { rejectOnEmpty: true, transaction });
  const recipient = await ownerEmail(models, endpoint.account_id, transaction);
  if (!recipient) return;
  const what = endpoint.kind === 'ecard_shared' ? 'Your ecard_shared webhook URL' : `Your ${endpoint.event_type ?? ''} webhook subscription`;
  await models.MailMessage.create(
    {
      account_id: endpoint.account_id,
      kind: 'webhook_endpoint_paused',
      recipient,
      subject: `Webhook endpoint paused: ${endpoint.url}`,
      text_body: [
        `${what} ${endpoint.url} (endpoint ${endpoint.id}) was paused on ${at.toISOString()} because ${reason}.`,
        'New events to it are logged as Failed ("endpoint paused") and can be replayed from the delivery log.',
        'Fix the receiver, then re-enable the endpoint (POST /v2/api/webhook/endpoints/enable or `cardsvc webhook enable`).',
      ].join('\n\n'),
      created_at: at,
    },
    { transaction },
  );
}
