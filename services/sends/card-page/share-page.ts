// The public page of a sent card, `/e/<pageId>`: one recipient's card, rendered from the send's snapshot and the
// card kept with it, so it keeps working after the design is deleted. Looking at it changes nothing (mail
// scanners and link previews fetch it by themselves); the open action marks the recipient opened.
import { Op } from 'sequelize';
import { ApiError } from '../../../lib/errors.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import type { ServiceContext } from '../../context.ts';
import { pageUrl } from './pages.ts';
import { renderPage, type PageState, type RenderedPage } from './page.ts';
import { cachedPage } from './page-cache.ts';
import { readOwnPage, type OwnPage } from './page-read.ts';
import { ownPageShown } from './page-shown.ts';
import { outcomeTransaction, recordOutcomeEvents } from '../delivery/outcome-events.ts';
import { queueReadReceipt } from '../delivery/read-receipt.ts';
import { renderCard } from './render.ts';
import { designFromText, loadSnapshot } from '../accept/snapshot.ts';
import { publicWidgetUrl, widgetPageUrl } from '../../widgets/public/links.ts';

const PAGE_ID = /^[0-9A-Za-z]{20,32}$/;

/**
 * A sent card's page: the recipient it belongs to, or null for the shared id of a send made before recipients
 * had pages of their own, which may show no recipient's name or address.
 */
export interface CardPage {
  send: Send;
  recipient: SendRecipient | null;
}

export async function findPage(ctx: ServiceContext, pageId: string): Promise<CardPage | null> {
  const { models } = ctx;
  if (!PAGE_ID.test(pageId)) return null;
  const own = await models.SendRecipient.findOne({ where: { page_id: pageId } });
  if (own) {
    // A person who clicks the moment the email arrives finds the page while the send's other recipients, or its own
    // bookkeeping, are still under way (page-shown.ts).
    if (own.rendered_html === null) return null;
    const send = await models.Send.findByPk(own.send_id);
    return send && ownPageShown(own, send.status) ? { send, recipient: own } : null;
  }
  // The send's id: its only recipient's card, or (several recipients) nobody's.
  const send = await models.Send.findOne({ where: { stat_vanity_id: pageId, status: 'sent' } });
  if (!send) return null;
  const recipients = await models.SendRecipient.findAll({ where: { send_id: send.id }, order: [['position', 'ASC']], limit: 2 });
  if (recipients.length === 1) return recipients[0]!.rendered_html === null ? null : { send, recipient: recipients[0]! };
  return { send, recipient: null };
}

// A stored template that no longer passes the template rules (refused or too large) shows an empty card, never an error.
function renderAnonymous(...args: Parameters<typeof renderCard>): { subject: string; header: string; html: string } {
  try {
    return renderCard(...args);
  } catch (err) {
    if (err instanceof ApiError && err.status === 422) return { subject: '', header: '', html: '' };
    throw err;
  }
}

export interface PageQuery {
  /** `?thanks=sent`, where the thank-you form comes back. */
  thanksSent: boolean;
}

/** The page (HTML and the frame hosts it embeds), or null when there is no such sent card (unknown, canceled, or not sent yet). */
export async function sharePage(ctx: ServiceContext, pageId: string, nonce: string, query: PageQuery = { thanksSent: false }): Promise<RenderedPage | null> {
  if (!PAGE_ID.test(pageId)) return null;
  const own = await readOwnPage(ctx, pageId);
  if (own === null) return null;
  return own ? ownPage(ctx, pageId, own, nonce, query) : sharedIdPage(ctx, pageId, nonce, query);
}

// A recipient's own page (nearly every page): from its one read.
async function ownPage(ctx: ServiceContext, pageId: string, own: OwnPage, nonce: string, query: PageQuery): Promise<RenderedPage> {
  const base = ctx.config.publicBaseUrl;
  // A share link's page is anyone's it is given to: it offers to be shared on.
  const state: PageState = {
    openAction: `/e/${pageId}/open`,
    opened: own.opened,
    url: pageUrl(base, pageId),
    shared: own.send.mode === 'share',
    thanksSent: query.thanksSent,
    sendBackUrl: own.widget?.public ? widgetPageUrl(base, own.widget.vanityId) : null,
  };
  // Only a send accepted before snapshots existed, whose eCard was gone before the migration took one, has none.
  if (!own.design) return renderPage(own.send, null, own.recipient, nonce, state);
  const { sha256, text } = own.design;
  // Every value the render reads, the design by the hash of its content.
  const key = JSON.stringify([sha256, own.send, own.recipient, state]);
  return cachedPage(key, nonce, (slot) => renderPage(own.send, designFromText(text), own.recipient, slot, state));
}

// The shared id of a send (`stat_vanity_id`) whose recipients have no pages of their own (sends from before pages).
async function sharedIdPage(ctx: ServiceContext, pageId: string, nonce: string, query: PageQuery): Promise<RenderedPage | null> {
  const page = await findPage(ctx, pageId);
  if (!page) return null;
  const design = await loadSnapshot(ctx, page.send.id);
  const url = pageUrl(ctx.config.publicBaseUrl, pageId);
  const sendBackUrl = await publicWidgetUrl(ctx, ctx.config.publicBaseUrl, page.send.widget_id);
  if (page.recipient) {
    const state = { openAction: `/e/${pageId}/open`, opened: page.recipient.opened_at !== null, url, shared: page.send.mode === 'share', thanksSent: query.thanksSent, sendBackUrl };
    return renderPage(page.send, design, page.recipient, nonce, state);
  }
  // A card nobody in particular opens: rendered again from the snapshot with no recipient's merge values.
  if (!design) return null;
  const anonymous = { recipient_name: '', recipient_email: null } as SendRecipient;
  const card = renderAnonymous(page.send, design, anonymous, url);
  const shown = { ...anonymous, rendered_subject: card.subject, rendered_header: card.header, rendered_html: card.html } as SendRecipient;
  return renderPage(page.send, design, shown, nonce, { openAction: null, opened: true, url, shared: true, thanksSent: false, sendBackUrl });
}

/**
 * The open action: marks the recipient opened and, when it is the send's first, the send (`sends.opened_at` is
 * "the first recipient opened"), each once, and queues the sender's read receipt when the send asked for one.
 * The receipt follows the conditional update's row count in the same transaction, so of two opens at once only
 * the one that changed the row queues it. False when there is no such page.
 */
export async function openPage(ctx: ServiceContext, pageId: string): Promise<boolean> {
  const page = await findPage(ctx, pageId);
  if (!page) return false;
  const { send, recipient } = page;
  if (!recipient) return true;
  // Opened already: nothing to write (most later visits).
  if (recipient.opened_at !== null) return true;
  const now = ctx.now();
  const { models } = ctx;
  await outcomeTransaction(ctx, send.account_id, ['ecard_opened'], async (transaction, emits) => {
    const [changed] = await models.SendRecipient.update({ opened_at: now }, { where: { id: recipient.id, opened_at: { [Op.is]: null } }, transaction });
    if (!changed) return;
    await models.Send.update({ opened_at: now }, { where: { id: send.id, opened_at: { [Op.is]: null } }, transaction });
    await queueReadReceipt(ctx, send, recipient, transaction);
    if (emits) await recordOutcomeEvents(ctx, 'ecard_opened', [{ send, recipient: await recipient.reload({ transaction }) }], transaction);
  });
  return true;
}
