// The background pass that gives uploads made before thumbnails existed their thumbnail (docs/decisions.md,
// "Embeddable widget": not a migration, which holds no media store), and the eCards showing them their thumb_file.
// Batches of conditional writes: idempotent, and safe with several workers.
import type { ServiceContext } from './context.ts';
import { attachThumbnail, mediaUrl } from './media.ts';

export const THUMBNAIL_BATCH = 20;

/** One batch of uploads without a thumbnail (not tried yet); true when another batch may be waiting. */
export async function backfillThumbnails(ctx: ServiceContext): Promise<boolean> {
  const { models } = ctx;
  const rows = await models.MediaFile.findAll({ where: { thumb_file_name: null }, order: [['id', 'ASC']], limit: THUMBNAIL_BATCH });
  let settled = 0;
  for (const row of rows) {
    const bytes = await ctx.mediaStore.get(row.file_name);
    if (!bytes) {
      // The file is gone: nothing to make, ever.
      await models.MediaFile.update({ thumb_file_name: '' }, { where: { id: row.id, thumb_file_name: null } });
      settled++;
      continue;
    }
    const thumb = await attachThumbnail(ctx, row, bytes);
    if (row.thumb_file_name !== null || thumb) settled++;
    if (thumb) {
      await models.Ecard.update(
        { thumb_file: thumb },
        { where: { account_id: row.account_id, self_hosted_url: mediaUrl(ctx.config.publicBaseUrl, row.file_name), thumb_file: null } },
      );
    }
  }
  // A batch where nothing settled (the store failing) waits for the next sweep instead of spinning.
  return rows.length === THUMBNAIL_BATCH && settled > 0;
}
