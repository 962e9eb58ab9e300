// The eCards a campaign sends: copies in its backing widget that remember their source, so later edits of the
// source change nothing; each recipient gets one of them, picked by a stable hash.
import { createHash } from 'node:crypto';
import { ecardDisabled, notFound } from '../../lib/errors.ts';
import type { Campaign } from '../../models/Campaign.ts';
import type { Ecard } from '../../models/Ecard.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { assertEcardsFit } from '../limits.ts';
import { duplicateImages, thumbFilesOf } from '../media.ts';
import { copyOfEcard } from '../widgets/admin/widgets.ts';
import { findCampaign, findDraft } from './campaigns.ts';

/** The campaign's eCard copies in display order. */
export function campaignEcards(ctx: Pick<ServiceContext, 'models'>, campaign: Pick<Campaign, 'widget_id'>): Promise<Ecard[]> {
  const { models } = ctx;
  return models.Ecard.findAll({ where: { widget_id: campaign.widget_id }, order: [['display_order', 'ASC'], ['id', 'ASC']] });
}

/** Which of the campaign's n eCards a recipient gets: the same one on every run (decisions.md). */
export function ecardFor(campaignId: number, recipientId: number, ecardIds: readonly number[]): number {
  const digest = createHash('sha256').update(`${campaignId}:${recipientId}`).digest();
  return ecardIds[digest.readUInt32BE(0) % ecardIds.length]!;
}

/** Replaces the draft's eCards with copies of the given ones: the account's enabled eCards outside campaigns. */
export async function saveCampaignEcards(ctx: ServiceContext, accountId: number, campaignId: number, ecardIds: number[]): Promise<Campaign> {
  const { models } = ctx;
  const unique = [...new Set(ecardIds)];
  const sources = await models.Ecard.findAll({
    where: { id: unique, account_id: accountId },
    include: [{ model: models.Widget, attributes: [], required: true, where: { is_campaign: false } }],
  });
  const missing = unique.filter((id) => !sources.some((e) => e.id === id));
  if (missing.length) throw notFound(`No eCard with id ${missing.join(', ')}`);
  const disabled = sources.filter((e) => e.disabled).map((e) => e.id);
  if (disabled.length) throw ecardDisabled(`eCard ${disabled.join(', ')} is disabled and cannot be sent`);
  // Checked before any file is copied; checked again under the lock.
  await findCampaign(ctx, accountId, campaignId);
  // The copies replace the draft's eCards, so the draft's widget then holds exactly these.
  assertEcardsFit(ctx, unique.length);
  const ordered = unique.map((id) => sources.find((e) => e.id === id)!);
  const images = await duplicateImages(ctx, accountId, ordered.map((e) => e.self_hosted_url));
  const thumbs = await thumbFilesOf(ctx, accountId, images);
  return accountTransaction(ctx, accountId, async (transaction) => {
    const campaign = await findDraft(ctx, accountId, campaignId, transaction);
    // By primary key: a range delete on MySQL locks the gap where another account's draft inserts too (a deadlock).
    const old = await models.Ecard.findAll({ attributes: ['id'], where: { widget_id: campaign.widget_id, account_id: accountId }, transaction });
    if (old.length) await models.Ecard.destroy({ where: { id: old.map((e) => e.id) }, transaction });
    for (const [i, source] of ordered.entries()) {
      await models.Ecard.create(
        { ...copyOfEcard(source, { widgetId: campaign.widget_id, image: images[i]!, thumb: thumbs[i]!, displayOrder: i }), price: null, source_ecard_id: source.id },
        { transaction },
      );
    }
    await campaign.update({ updated_at: ctx.now() }, { transaction });
    return campaign;
  });
}
