// A read receipt: a send-ecard made with `opennotification` emails its sender when a recipient first opens the
// card (the open action), once per recipient, in the send's language, with a link to send another from the
// sending widget's page when that widget is public.
import type { Transaction } from 'sequelize';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';
import { stringsFor } from '../../i18n/locale.ts';
import { publicWidgetUrl } from '../../widgets/public/links.ts';
import { cardTitle, queueSenderMail, recipientLabel } from './sender-mail.ts';

/** Called in the transaction that marked the recipient opened, only when that update changed the row. */
export async function queueReadReceipt(ctx: ServiceContext, send: Send, recipient: SendRecipient, transaction: Transaction): Promise<void> {
  if (!send.notify_on_open) return;
  const strings = stringsFor(send.locale);
  const values = { recipient: recipientLabel(recipient, strings), card: cardTitle(recipient) };
  // "Send another": the sending widget's page, when it is public.
  const another = await publicWidgetUrl(ctx, ctx.config.publicBaseUrl, send.widget_id, transaction);
  const text = strings.t('receiptBody', values) + (another ? `\n\n${strings.t('sendAnother', { url: another })}` : '');
  await queueSenderMail(
    ctx,
    send,
    { kind: 'read_receipt', subject: strings.t('receiptSubject', values), text, replyTo: null },
    transaction,
  );
}
