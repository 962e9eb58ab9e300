// Whether a recipient's own card page shows (`/e/<pageId>`): one rule for the page's two reads, findPage
// (share-page.ts) and the hot read of decoded rows (page-read.ts); test/sends/rules-agree.test.ts runs both on the
// same rows. The page is there once the recipient's card is rendered, which is before their email leaves; a
// recipient whose delivery failed or was canceled, or a send that is neither going out nor sent, has none.
import type { SendStatus } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';

const HIDDEN_RECIPIENTS = ['failed', 'canceled'] as const;
const SHOWN_SENDS = ['pending', 'sent'] as const;

export function ownPageShown(recipient: Pick<SendRecipient, 'rendered_html' | 'status'>, sendStatus: SendStatus): boolean {
  return recipient.rendered_html !== null && !(HIDDEN_RECIPIENTS as readonly string[]).includes(recipient.status) && (SHOWN_SENDS as readonly string[]).includes(sendStatus);
}
