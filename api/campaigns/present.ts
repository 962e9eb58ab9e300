// Campaigns and their recipients as the API shows them (services/campaigns/view.ts reads them).
import type { z } from 'zod';
import { localIso } from '../../services/campaigns/schedule-time.ts';
import type { CampaignRecipient, CampaignView } from '../../services/campaigns/view.ts';
import type { Campaign as CampaignSchema, Recipient } from './schema.ts';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentCampaign({ campaign: c, ecards, counts, waves }: CampaignView): z.input<typeof CampaignSchema> {
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
    ecard_ids: ecards.map((e) => e.id),
    source_ecard_ids: ecards.map((e) => e.source_ecard_id),
    scheduled_at: iso(c.scheduled_at),
    scheduled_timezone: c.scheduled_timezone,
    scheduled_at_local: scheduledLocal(c),
    waves: waves.map((w) => ({ timezone: w.timezone, send_at: w.send_at.toISOString(), recipients: w.recipients })),
    started_at: iso(c.started_at),
    completed_at: iso(c.completed_at),
    createdat: c.created_at.toISOString(),
    updatedat: c.updated_at.toISOString(),
    counts,
  };
}

/** In one zone, the instant there; in each recipient's zone, the wall-clock time asked for. */
export function scheduledLocal(c: CampaignView['campaign']): string | null {
  if (c.scheduled_wall) return c.scheduled_wall;
  return c.scheduled_at && c.scheduled_timezone && c.scheduled_timezone !== 'recipient' ? localIso(c.scheduled_at, c.scheduled_timezone) : null;
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
