// Recipients' own pages: every recipient of a send has a page id of their own, so one recipient's link never
// shows another's card. A send with one recipient (a share link, a bulk send's element) uses its send's id, so
// `shareUrl`/`statVanityId` and the page are one and the same.
import { Op } from 'sequelize';
import { randomId } from '../../../lib/ids.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';

/** 24 base62 characters: about 143 random bits. */
const PAGE_ID_LENGTH = 24;

export function withPageIds<R extends object>(recipients: R[], statVanityId: string): Array<R & { pageId: string }> {
  return recipients.map((r) => ({ ...r, pageId: recipients.length === 1 ? statVanityId : randomId(PAGE_ID_LENGTH) }));
}

export const pageUrl = (publicBaseUrl: string, pageId: string) => `${publicBaseUrl}/e/${pageId}`;

/** Where a recipient's email links: their own page, or (rows made before pages) the send's. */
export const recipientUrl = (publicBaseUrl: string, send: Pick<Send, 'stat_vanity_id'>, recipient: Pick<SendRecipient, 'page_id'>) =>
  pageUrl(publicBaseUrl, recipient.page_id ?? send.stat_vanity_id);

/**
 * A send accepted before recipients had pages and dispatched after: each recipient not yet rendered gets a page
 * of their own before their card is rendered (conditional, so a retried activity keeps the first id).
 */
export async function givePagesToRecipients(ctx: ServiceContext, send: Send, recipients: SendRecipient[]): Promise<void> {
  const missing = recipients.filter((r) => r.page_id === null && r.rendered_html === null);
  if (missing.length === 0) return;
  for (const r of missing) {
    const pageId = recipients.length === 1 ? send.stat_vanity_id : randomId(PAGE_ID_LENGTH);
    await ctx.models.SendRecipient.update({ page_id: pageId }, { where: { id: r.id, page_id: { [Op.is]: null } } });
    await r.reload();
  }
}
