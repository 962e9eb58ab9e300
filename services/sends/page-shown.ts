// Whether a recipient's own card page shows (`/e/<pageId>`): one rule, in code for findPage (share-page.ts) and in
// SQL for the page's hot read (page-read.ts); test/sends/rules-agree.test.ts runs both on the same rows. The page is
// there once the recipient's card is rendered, which is before their email leaves; a recipient whose delivery failed
// or was canceled, or a send that is neither going out nor sent, has none.
import type { SendStatus } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';

const HIDDEN_RECIPIENTS = ['failed', 'canceled'] as const;
const SHOWN_SENDS = ['pending', 'sent'] as const;

export function ownPageShown(recipient: Pick<SendRecipient, 'rendered_html' | 'status'>, sendStatus: SendStatus): boolean {
  return recipient.rendered_html !== null && !(HIDDEN_RECIPIENTS as readonly string[]).includes(recipient.status) && (SHOWN_SENDS as readonly string[]).includes(sendStatus);
}

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** The same rule in SQL over `send_recipients` aliased `r` and `sends` aliased `s`: 1 when shown, else 0. */
export const ownPageShownSql = (r: string, s: string) =>
  `CASE WHEN ${r}.rendered_html IS NOT NULL AND ${r}.status NOT IN (${list(HIDDEN_RECIPIENTS)}) AND ${s}.status IN (${list(SHOWN_SENDS)}) THEN 1 ELSE 0 END`;
