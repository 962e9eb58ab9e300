// A campaign as the surfaces show it: its row, its eCards and its recipients' counts, read for a whole page of
// campaigns at once (the presenters only map what this returns).
import type { ServiceContext } from '../context.ts';
import { col, fn, Op, QueryTypes, type Transaction } from 'sequelize';
import type { Campaign } from '../../models/Campaign.ts';
import type { CampaignRecipient } from '../../models/CampaignRecipient.ts';

export type { Campaign, CampaignRecipient };

/** Recipients by state, `recipients` the total, `opened` the sends that were opened, `bounced` those a bounce or complaint came back for. */
export interface CampaignCounts {
  recipients: number;
  pending: number;
  sent: number;
  failed: number;
  unknown: number;
  skipped: number;
  canceled: number;
  opened: number;
  bounced: number;
}

export interface CampaignView {
  campaign: Campaign;
  /** The campaign's eCards (copies in its own widget), in display order. */
  ecards: Array<{ id: number; source_ecard_id: number | null }>;
  counts: CampaignCounts;
  /** Its waves, earliest first (none when it goes out at one instant). */
  waves: Array<{ timezone: string; send_at: Date; recipients: number; completed_at: Date | null }>;
}

const emptyCounts = (): CampaignCounts => ({ recipients: 0, pending: 0, sent: 0, failed: 0, unknown: 0, skipped: 0, canceled: 0, opened: 0, bounced: 0 });

async function countsOf(ctx: Pick<ServiceContext, 'models'>, ids: number[], transaction?: Transaction): Promise<Map<number, CampaignCounts>> {
  const { models } = ctx;
  const opts = transaction ? { transaction } : {};
  const result = new Map(ids.map((id) => [id, emptyCounts()]));
  if (ids.length === 0) return result;
  const rows = (await models.CampaignRecipient.findAll({
    attributes: ['campaign_id', 'status', [fn('COUNT', col('id')), 'n']],
    where: { campaign_id: ids },
    group: ['campaign_id', 'status'],
    raw: true,
    ...opts,
  })) as unknown as Array<{ campaign_id: number; status: keyof CampaignCounts; n: number | string }>;
  for (const r of rows) {
    const counts = result.get(Number(r.campaign_id))!;
    counts[r.status] = Number(r.n);
    counts.recipients += Number(r.n);
  }
  const opened = await models.sequelize.query<{ campaign_id: number; n: number | string }>(
    `SELECT s.origin_id AS campaign_id, COUNT(s.id) AS n FROM sends s WHERE s.origin = 'campaign' AND s.origin_id IN (:ids) AND s.opened_at IS NOT NULL GROUP BY s.origin_id`,
    { type: QueryTypes.SELECT, replacements: { ids }, ...opts },
  );
  for (const r of opened) result.get(Number(r.campaign_id))!.opened = Number(r.n);
  // A bounce leaves its recipient `sent`: counted apart, from the recipients' rows (one per campaign send).
  const bounced = await models.sequelize.query<{ campaign_id: number; n: number | string }>(
    `SELECT s.origin_id AS campaign_id, COUNT(r.id) AS n FROM sends s JOIN send_recipients r ON r.send_id = s.id WHERE s.origin = 'campaign' AND s.origin_id IN (:ids) AND r.bounced_at IS NOT NULL GROUP BY s.origin_id`,
    { type: QueryTypes.SELECT, replacements: { ids } },
  );
  for (const r of bounced) result.get(Number(r.campaign_id))!.bounced = Number(r.n);
  return result;
}

/** One campaign's counts (in a transaction: those its write sees). */
export async function campaignCounts(ctx: Pick<ServiceContext, 'models'>, campaignId: number, transaction?: Transaction): Promise<CampaignCounts> {
  return (await countsOf(ctx, [campaignId], transaction)).get(campaignId)!;
}

export async function campaignViews(ctx: Pick<ServiceContext, 'models'>, campaigns: Campaign[]): Promise<CampaignView[]> {
  const { models } = ctx;
  const counts = await countsOf(ctx, campaigns.map((c) => c.id));
  const ecards = campaigns.length
    ? await models.Ecard.findAll({
        attributes: ['id', 'widget_id', 'source_ecard_id'],
        where: { widget_id: { [Op.in]: campaigns.map((c) => c.widget_id) } },
        order: [['display_order', 'ASC'], ['id', 'ASC']],
      })
    : [];
  const waves = campaigns.length
    ? await models.CampaignWave.findAll({ where: { campaign_id: campaigns.map((c) => c.id) }, order: [['send_at', 'ASC'], ['id', 'ASC']] })
    : [];
  return campaigns.map((campaign) => ({
    campaign,
    waves: waves.filter((w) => w.campaign_id === campaign.id).map((w) => ({ timezone: w.timezone, send_at: w.send_at, recipients: w.recipients, completed_at: w.completed_at ?? null })),
    ecards: ecards.filter((e) => e.widget_id === campaign.widget_id).map((e) => ({ id: e.id, source_ecard_id: e.source_ecard_id ?? null })),
    counts: counts.get(campaign.id)!,
  }));
}

export async function campaignView(ctx: Pick<ServiceContext, 'models'>, campaign: Campaign): Promise<CampaignView> {
  return (await campaignViews(ctx, [campaign]))[0]!;
}
