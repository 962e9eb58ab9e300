// Emails to account owners about their webhooks, queued for the mail transport.
import type { ServiceContext } from '../context.ts';
import type { Transaction } from 'sequelize';
import { queueOwnerNotice } from '../owner-mail.ts';

export async function notifyEndpointPaused(ctx: Pick<ServiceContext, 'models'>, endpointId: number, reason: string, at: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const endpoint = await models.WebhookEndpoint.findByPk(endpointId, { rejectOnEmpty: true, transaction });
  const what = endpoint.kind === 'ecard_shared' ? 'Your ecard_shared webhook URL' : `Your ${endpoint.event_type ?? ''} webhook subscription`;
  await queueOwnerNotice(
    ctx,
    endpoint.account_id,
    {
      kind: 'webhook_endpoint_paused',
      subject: `Webhook endpoint paused: ${endpoint.url}`,
      paragraphs: [
        `${what} ${endpoint.url} (endpoint ${endpoint.id}) was paused on ${at.toISOString()} because ${reason}.`,
        'New events to it are logged as Failed ("endpoint paused") and can be replayed from the delivery log.',
        'Fix the receiver, then re-enable the endpoint (POST /v2/api/webhook/endpoints/enable or `cardsvc webhook enable`).',
      ],
    },
    at,
    transaction,
  );
}
