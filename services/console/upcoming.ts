// What goes out in the next 7 days, for the console home: the scheduled sends and the scheduled campaigns (listed,
// soonest first, at most 10 of each with how many there are in all) and the cards the enabled automations will
// send (counted from their forecast, the same one findOne's next_firings shows; not listed).
import { Op } from 'sequelize';
import { loadConfigs } from '../automations/config.ts';
import { nextFirings } from '../automations/preview.ts';
import { campaignViews } from '../campaigns/view.ts';
import type { ServiceContext } from '../context.ts';

export const UPCOMING_DAYS = 7;
/** How many sends and campaigns the home lists (the rest are counted). */
export const UPCOMING_LISTED = 10;

export interface UpcomingSend {
  id: number;
  send_id: string;
  send_at: string;
  ecard: string;
  sender_name: string;
  /** The first recipient's name, and how many others there are. */
  to: string;
  others: number;
}
export interface UpcomingCampaign {
  id: number;
  name: string;
  scheduled_at: string;
  timezone: string | null;
  recipients: number;
}
export interface Upcoming {
  until: string;
  sends: { listed: UpcomingSend[]; total: number };
  campaigns: { listed: UpcomingCampaign[]; total: number };
  /** Cards the enabled automations send in the window, and how many automations send them. */
  automations: { cards: number; automations: number };
}

async function upcomingSends(ctx: Pick<ServiceContext, 'models'>, accountId: number, window: { from: Date; to: Date }): Promise<Upcoming['sends']> {
  const { models } = ctx;
  const where = { account_id: accountId, status: 'scheduled', send_at: { [Op.gte]: window.from, [Op.lt]: window.to } };
  const [rows, total] = await Promise.all([
    models.Send.findAll({ where, attributes: ['id', 'send_id', 'send_at', 'ecard_id', 'sender_name'], order: [['send_at', 'ASC'], ['id', 'ASC']], limit: UPCOMING_LISTED }),
    models.Send.count({ where }),
  ]);
  if (!rows.length) return { listed: [], total };
  const ids = rows.map((s) => s.id);
  const [ecards, recipients] = await Promise.all([
    models.Ecard.findAll({ where: { id: [...new Set(rows.map((s) => s.ecard_id))], account_id: accountId }, attributes: ['id', 'name'], raw: true }),
    models.SendRecipient.findAll({ where: { send_id: ids }, attributes: ['send_id', 'position', 'recipient_name', 'recipient_email'], order: [['position', 'ASC']], raw: true }),
  ]);
  const listed = rows.map((send) => {
    const mine = recipients.filter((r) => r.send_id === send.id);
    const first = mine[0];
    return {
      id: send.id,
      send_id: send.send_id,
      send_at: send.send_at.toISOString(),
      ecard: ecards.find((e) => e.id === send.ecard_id)?.name ?? 'A deleted eCard',
      sender_name: send.sender_name,
      to: first ? first.recipient_name || first.recipient_email || 'a share link' : 'a share link',
      others: Math.max(0, mine.length - 1),
    };
  });
  return { listed, total };
}

async function upcomingCampaigns(ctx: Pick<ServiceContext, 'models'>, accountId: number, window: { from: Date; to: Date }): Promise<Upcoming['campaigns']> {
  const { models } = ctx;
  const where = { account_id: accountId, status: 'scheduled', scheduled_at: { [Op.gte]: window.from, [Op.lt]: window.to } };
  const [rows, total] = await Promise.all([
    models.Campaign.findAll({ where, order: [['scheduled_at', 'ASC'], ['id', 'ASC']], limit: UPCOMING_LISTED }),
    models.Campaign.count({ where }),
  ]);
  const views = await campaignViews(ctx, rows);
  const listed = views.map(({ campaign, counts }) => ({
    id: campaign.id,
    name: campaign.campaign_name,
    scheduled_at: campaign.scheduled_at!.toISOString(),
    timezone: campaign.scheduled_timezone ?? null,
    recipients: counts.recipients,
  }));
  return { listed, total };
}

async function automationCards(ctx: ServiceContext, accountId: number, window: { from: Date; to: Date }): Promise<Upcoming['automations']> {
  const rows = await ctx.models.Automation.findAll({ where: { account_id: accountId, enabled: true } });
  if (!rows.length) return { cards: 0, automations: 0 };
  const firings = await nextFirings(ctx, await loadConfigs(ctx, rows), false);
  let cards = 0;
  let automations = 0;
  for (const list of firings.values()) {
    const n = list.filter((f) => Date.parse(f.send_at) >= window.from.getTime() && Date.parse(f.send_at) < window.to.getTime()).reduce((sum, f) => sum + f.occasions.length, 0);
    cards += n;
    if (n > 0) automations += 1;
  }
  return { cards, automations };
}

export async function upcoming(ctx: ServiceContext, accountId: number): Promise<Upcoming> {
  const from = ctx.now();
  const window = { from, to: new Date(from.getTime() + UPCOMING_DAYS * 24 * 3600 * 1000) };
  const [sends, campaigns, automations] = await Promise.all([
    upcomingSends(ctx, accountId, window),
    upcomingCampaigns(ctx, accountId, window),
    automationCards(ctx, accountId, window),
  ]);
  return { until: window.to.toISOString(), sends, campaigns, automations };
}
