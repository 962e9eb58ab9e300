// Campaigns and their recipients as the API shows them; counts and eCards read for a whole page at once.
import { col, fn, Op, QueryTypes } from 'sequelize';
import type { z } from 'zod';
import type { Campaign } from '../../models/Campaign.ts';
import type { CampaignRecipient } from '../../models/CampaignRecipient.ts';
import type { Models } from '../../models/index.ts';
import { localIso } from '../../services/campaigns/schedule-time.ts';
import type { Campaign as CampaignSchema, CampaignCounts, Recipient } from './schema.ts';

type Counts = z.input<typeof CampaignCounts>;
const iso = (d: Date | null) => d?.toISOString() ?? null;
const emptyCounts = (): Counts => ({ recipients: 0, pending: 0, sent: 0, failed: 0, unknown: 0, skipped: 0, canceled: 0, opened: 0 });

async function countsOf(models: Models, ids: number[]): Promise<Map<number, Counts>> {
  const result = new Map(ids.map((id) => [id, emptyCounts()]));
  if (ids.length === 0) return result;
  const rows = (await models.CampaignRecipient.findAll({
    attributes: ['campaign_id', 'status', [fn('COUNT', col('id')), 'n']],
    where: { campaign_id: ids },
    group: ['campaign_id', 'status'],
    raw: true,
  })) as unknown as Array<{ campaign_id: number; status: keyof Counts; n: number | string }>;
  for (const r of rows) {
    const counts = result.get(Number(r.campaign_id))!;
    counts[r.status] = Number(r.n);
    counts.recipients += Number(r.n);
  }
  const opened = await models.sequelize.query<{ campaign_id: number; n: number | string }>(
    `SELECT s.origin_id AS campaign_id, COUNT(s.id) AS n FROM sends s WHERE s.origin = 'campaign' AND s.origin_id IN (:ids) AND s.opened_at IS NOT NULL GROUP BY s.origin_id`,
    { type: QueryTypes.SELECT, replacements: { ids } },
  );
  for (const r of opened) result.get(Number(r.campaign_id))!.opened = Number(r.n);
  return result;
}

export async function presentCampaigns(models: Models, campaigns: Campaign[]): Promise<Array<z.input<typeof CampaignSchema>>> {
  const counts = await countsOf(models, campaigns.map((c) => c.id));
  const ecards = campaigns.length
    ? await models.Ecard.findAll({
        attributes: ['id', 'widget_id', 'source_ecard_id'],
        where: { widget_id: { [Op.in]: campaigns.map((c) => c.widget_id) } },
        order: [['display_order', 'ASC'], ['id', 'ASC']],
      })
    : [];
  return campaigns.map((c) => {
    const own = ecards.filter((e) => e.widget_id === c.widget_id);
    return {
      id: c.id,
      campaign_name: c.campaign_name,
      status: c.status,
      from_name: c.from_name,
      from_email: c.from_email,
      personal_message: c.personal_message,
      locale: c.locale,
      gift_card_enabled: c.gift_card_enabled,
      gift_card: c.gift_card ? (JSON.parse(c.gift_card) as { product_id: string; amount: number }) : null,
      widgetid: c.widget_id,
      ecard_ids: own.map((e) => e.id),
      source_ecard_ids: own.map((e) => e.source_ecard_id ?? null),
      scheduled_at: iso(c.scheduled_at),
      scheduled_timezone: c.scheduled_timezone,
      scheduled_at_local: c.scheduled_at && c.scheduled_timezone ? localIso(c.scheduled_at, c.scheduled_timezone) : null,
      started_at: iso(c.started_at),
      completed_at: iso(c.completed_at),
      createdat: c.created_at.toISOString(),
      updatedat: c.updated_at.toISOString(),
      counts: counts.get(c.id)!,
    };
  });
}

export async function presentCampaign(models: Models, campaign: Campaign) {
  return (await presentCampaigns(models, [campaign]))[0]!;
}

/** A directory recipient's email and name are a member's: null for a key without `directory: view` (CSV rows keep theirs). */
export function presentRecipient(r: CampaignRecipient, opened: boolean, seesDirectory: boolean): z.input<typeof Recipient> {
  const hidden = r.source === 'directory' && !seesDirectory;
  return {
    id: r.id,
    source: r.source,
    member_id: r.member_id,
    email: hidden ? null : r.email,
    name: hidden ? null : r.name,
    merge_fields: r.merge_fields ? (JSON.parse(r.merge_fields) as Record<string, string>) : {},
    status: r.status,
    reason: r.reason,
    ecard_id: r.ecard_id,
    sent_at: iso(r.sent_at),
    opened,
  };
}
