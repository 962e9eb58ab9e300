// Campaigns as resources: find, list, create (with the backing widget that will hold its eCard copies) and edit
// while a draft. State moves (schedule, send, unschedule, cancel) are in ./moves.ts.
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { campaignNotEditable, notFound, requireFields } from '../../lib/errors.ts';
import type { Campaign, CampaignStatus } from '../../models/Campaign.ts';
import type { ServiceContext } from '../context.ts';
import { checkGiftAmount } from '../rewards/catalog.ts';
import { loadSettings } from '../rewards/settings.ts';
import { keywordWhere } from '../search.ts';
import { sanitizeHtmlField } from '../ecards/templates.ts';
import { newVanityId } from '../widgets/admin/widgets.ts';

export interface GiftCard {
  product_id: string;
  amount: number;
}

export interface CampaignInput {
  campaign_name?: string | undefined;
  from_name?: string | null | undefined;
  from_email?: string | null | undefined;
  personal_message?: string | null | undefined;
  locale?: string | undefined;
  gift_card_enabled?: boolean | undefined;
  gift_card?: GiftCard | null | undefined;
}

export async function findCampaign(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<Campaign> {
  const { models } = ctx;
  const campaign = await models.Campaign.findOne({ where: { id, account_id: accountId }, ...(transaction ? { transaction } : {}) });
  if (!campaign) throw notFound(`No campaign with id ${id}`);
  return campaign;
}

/** Recipients, eCards and texts change only while the campaign is a draft. */
export function assertDraft(campaign: Campaign): void {
  if (campaign.status !== 'draft') {
    throw campaignNotEditable(`Campaign ${campaign.id} is ${campaign.status}; only a draft can be changed`);
  }
}

/** The draft, locked for the rest of the transaction by the caller's account lock. */
export async function findDraft(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction: Transaction): Promise<Campaign> {
  const campaign = await findCampaign(ctx, accountId, id, transaction);
  assertDraft(campaign);
  return campaign;
}

function columnsOf(input: CampaignInput): Partial<Campaign> {
  const columns: Record<string, unknown> = {};
  if (input.campaign_name !== undefined) columns.campaign_name = input.campaign_name;
  if (input.from_name !== undefined) columns.from_name = input.from_name || null;
  if (input.from_email !== undefined) columns.from_email = input.from_email ? input.from_email.toLowerCase() : null;
  if (input.personal_message !== undefined) columns.personal_message = input.personal_message ? sanitizeHtmlField(input.personal_message) : null;
  if (input.locale !== undefined) columns.locale = input.locale;
  if (input.gift_card_enabled !== undefined) columns.gift_card_enabled = input.gift_card_enabled;
  if (input.gift_card !== undefined) columns.gift_card = input.gift_card ? JSON.stringify(input.gift_card) : null;
  return columns;
}

/** Creates a draft (with its backing widget) when `id` is 0 or absent, else edits the draft's fields that were sent. */
export async function saveCampaign(ctx: ServiceContext, accountId: number, id: number | undefined, input: CampaignInput): Promise<Campaign> {
  const { models } = ctx;
  // A gift's amount is checked against the bounds now; its product and stock when the campaign leaves the draft.
  if (input.gift_card) checkGiftAmount(await loadSettings(ctx, accountId), input.gift_card.amount);
  return writeTransaction(models.sequelize, async (transaction) => {
    if (id) {
      const campaign = await findCampaign(ctx, accountId, id, transaction);
      assertDraft(campaign);
      return campaign.update(columnsOf(input), { transaction });
    }
    requireFields({ 'campaign.campaign_name': input.campaign_name });
    const widget = await models.Widget.create(
      { account_id: accountId, vanity_id: newVanityId(), name: `Campaign - ${input.campaign_name!}`.slice(0, 200), wconfig: {}, is_campaign: true },
      { transaction },
    );
    const campaign = await models.Campaign.create(
      {
        account_id: accountId,
        widget_id: widget.id,
        campaign_name: input.campaign_name!,
        from_name: null,
        from_email: null,
        personal_message: null,
        gift_card: null,
        status: 'draft',
        ...columnsOf(input),
      },
      { transaction },
    );
    // With the defaults the database filled in.
    return campaign.reload({ transaction });
  });
}

export async function updateLocale(ctx: ServiceContext, accountId: number, id: number, locale: string): Promise<Campaign> {
  return writeTransaction(ctx.models.sequelize, async (transaction) => {
    const campaign = await findCampaign(ctx, accountId, id, transaction);
    assertDraft(campaign);
    return campaign.update({ locale }, { transaction });
  });
}

export interface CampaignListQuery {
  page: number;
  perPage: number;
  keyword?: string | undefined;
  status?: CampaignStatus | undefined;
}

export async function listCampaigns(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: CampaignListQuery): Promise<{ rows: Campaign[]; count: number }> {
  const { models } = ctx;
  const conditions: WhereOptions[] = [{ account_id: accountId }];
  if (query.status) conditions.push({ status: query.status });
  if (query.keyword) conditions.push(keywordWhere(models.sequelize, ['campaign_name'], query.keyword));
  return models.Campaign.findAndCountAll({
    where: { [Op.and]: conditions },
    order: [['created_at', 'DESC'], ['id', 'DESC']],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
}
