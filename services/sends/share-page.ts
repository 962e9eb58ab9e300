// The public page of a sent card, `/e/<statVanityId>`: rendered from the send's snapshot and the card kept with
// it, so it keeps working after the design is deleted; the first view marks the send opened.
import { Op } from 'sequelize';
import type { ServiceContext } from '../context.ts';
import { renderPage } from './render.ts';
import { loadSnapshot } from './snapshot.ts';

/** The page's HTML, or null when there is no such sent card (unknown, canceled, or not sent yet). */
export async function sharePage(ctx: ServiceContext, statVanityId: string, nonce: string): Promise<string | null> {
  const { models } = ctx;
  if (!/^[0-9A-Za-z]{20,32}$/.test(statVanityId)) return null;
  const send = await models.Send.findOne({ where: { stat_vanity_id: statVanityId, status: 'sent' } });
  if (!send) return null;
  const recipient = await models.SendRecipient.findOne({ where: { send_id: send.id }, order: [['position', 'ASC']] });
  if (!recipient?.rendered_html) return null;
  // The first view marks the send opened (once: the update is conditional).
  await models.Send.update({ opened_at: ctx.now() }, { where: { id: send.id, opened_at: { [Op.is]: null } } });
  return renderPage(send, await loadSnapshot(models, send.id), recipient, nonce);
}
