// A campaign's recipients: directory members and CSV rows, deduplicated by email (a directory entry winning),
// at most 100,000; listed with their states. Erasing a member (or a CSV
// recipient's address) clears its data from every campaign.
import { col, fn, Op, where, type Transaction } from 'sequelize';
import { notFound, tooManyRecipients } from '../../lib/errors.ts';
import type { Campaign } from '../../models/Campaign.ts';
import type { CampaignRecipient, CampaignRecipientStatus } from '../../models/CampaignRecipient.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { findCampaign, findDraft } from './campaigns.ts';
import { redactSends } from '../sends/erasure/redact.ts';

export const MAX_CAMPAIGN_RECIPIENTS = 100_000;
const INSERT_CHUNK = 1000;

export interface CsvRecipient {
  email: string;
  name?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  merge_fields?: Record<string, string> | undefined;
}

export interface RecipientsInput {
  directoryMemberIds: number[];
  csvRecipients: CsvRecipient[];
  append: boolean;
}

type NewRecipient = Pick<CampaignRecipient, 'source' | 'member_id' | 'email' | 'name' | 'first_name' | 'last_name' | 'merge_fields'>;

async function membersOf(ctx: Pick<ServiceContext, 'models'>, accountId: number, ids: number[]): Promise<NewRecipient[]> {
  const { models } = ctx;
  const unique = [...new Set(ids)];
  const members = unique.length ? await models.TeamMember.findAll({ where: { account_id: accountId, id: unique } }) : [];
  const missing = unique.filter((id) => !members.some((m) => m.id === id));
  if (missing.length) throw notFound(`No directory member with id ${missing.slice(0, 20).join(', ')}`);
  const byId = new Map(members.map((m) => [m.id, m]));
  // Name, email and merge fields are taken again from the member when its email goes out.
  return unique.map((id) => {
    const m = byId.get(id)!;
    const name = [m.first_name, m.last_name].filter(Boolean).join(' ');
    return { source: 'directory', member_id: m.id, email: m.email.toLowerCase(), name, first_name: m.first_name ?? '', last_name: m.last_name ?? '', merge_fields: null };
  });
}

function csvRowsOf(rows: CsvRecipient[]): NewRecipient[] {
  return rows.map((r) => {
    const first = r.first_name?.trim() ?? '';
    const last = r.last_name?.trim() ?? '';
    return {
      source: 'csv',
      member_id: null,
      email: r.email.trim().toLowerCase(),
      name: (r.name?.trim() || [first, last].filter(Boolean).join(' ')).slice(0, 200),
      first_name: first.slice(0, 200),
      last_name: last.slice(0, 200),
      merge_fields: r.merge_fields && Object.keys(r.merge_fields).length ? JSON.stringify(r.merge_fields) : null,
    };
  });
}

/** Sets (or with `append`, adds to) the draft's recipients; all or nothing. */
export async function saveRecipients(ctx: ServiceContext, accountId: number, campaignId: number, input: RecipientsInput): Promise<Campaign> {
  const { models } = ctx;
  await findCampaign(ctx, accountId, campaignId);
  const members = await membersOf(ctx, accountId, input.directoryMemberIds);
  const incoming = new Map<string, NewRecipient>();
  for (const r of [...members, ...csvRowsOf(input.csvRecipients)]) if (!incoming.has(r.email)) incoming.set(r.email, r);
  return accountTransaction(ctx, accountId, async (transaction) => {
    const campaign = await findDraft(ctx, accountId, campaignId, transaction);
    if (!input.append) await removeRecipients(ctx, campaign.id, transaction);
    const kept = input.append ? await existingSources(ctx, campaign.id, transaction) : new Map<string, string>();
    // An address already there stays, unless a directory entry now replaces its CSV row.
    const replaced = [...incoming.values()].filter((r) => r.source === 'directory' && kept.get(r.email) === 'csv').map((r) => r.email);
    const replacing = new Set(replaced);
    const added = [...incoming.values()].filter((r) => !kept.has(r.email) || replacing.has(r.email));
    if (kept.size - replaced.length + added.length > MAX_CAMPAIGN_RECIPIENTS) {
      throw tooManyRecipients(`A campaign has at most ${MAX_CAMPAIGN_RECIPIENTS} recipients (this would make ${kept.size - replaced.length + added.length})`);
    }
    for (let i = 0; i < replaced.length; i += INSERT_CHUNK) {
      await models.CampaignRecipient.destroy({ where: { campaign_id: campaign.id, email: replaced.slice(i, i + INSERT_CHUNK) }, transaction });
    }
    for (let i = 0; i < added.length; i += INSERT_CHUNK) {
      const chunk = added.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, campaign_id: campaign.id, account_id: accountId }));
      await models.CampaignRecipient.bulkCreate(chunk, { transaction });
    }
    await campaign.update({ updated_at: ctx.now() }, { transaction });
    return campaign;
  });
}

/**
 * Empties the draft by primary key, in chunks: a range delete on MySQL locks the gap at the end of the index, where
 * another account's draft inserts too, and the two deadlock.
 */
async function removeRecipients(ctx: Pick<ServiceContext, 'models'>, campaignId: number, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const rows = await models.CampaignRecipient.findAll({ attributes: ['id'], where: { campaign_id: campaignId }, raw: true, transaction });
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await models.CampaignRecipient.destroy({ where: { id: rows.slice(i, i + INSERT_CHUNK).map((r) => r.id) }, transaction });
  }
}

async function existingSources(ctx: Pick<ServiceContext, 'models'>, campaignId: number, transaction: Transaction): Promise<Map<string, string>> {
  const { models } = ctx;
  const rows = await models.CampaignRecipient.findAll({ attributes: ['email', 'source'], where: { campaign_id: campaignId }, raw: true, transaction });
  return new Map(rows.map((r) => [r.email, r.source]));
}

export interface RecipientListQuery {
  page: number;
  perPage: number;
  status?: CampaignRecipientStatus | undefined;
}

export async function listRecipients(ctx: Pick<ServiceContext, 'models'>, accountId: number, campaignId: number, query: RecipientListQuery) {
  const { models } = ctx;
  const campaign = await findCampaign(ctx, accountId, campaignId);
  const { rows, count } = await models.CampaignRecipient.findAndCountAll({
    where: { campaign_id: campaign.id, ...(query.status ? { status: query.status } : {}) },
    order: [['id', 'ASC']],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  const sendIds = rows.flatMap((r) => (r.send_id ? [r.send_id] : []));
  const opened = new Set(
    sendIds.length ? (await models.Send.findAll({ attributes: ['id'], where: { id: sendIds, opened_at: { [Op.ne]: null } }, raw: true })).map((s) => s.id) : [],
  );
  return { rows: rows.map((r) => ({ recipient: r, opened: r.send_id !== null && opened.has(r.send_id) })), count };
}

/** Erasure: the member's rows in every campaign of the account, and the sends made for them, lose its data. */
/** A stranger's address (a CSV recipient) leaves the account's campaign recipients and the sends made to it. */
export async function eraseCampaignAddress(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const rows = await models.CampaignRecipient.findAll({ attributes: ['id', 'send_id'], where: { account_id: accountId, [Op.and]: [where(fn('LOWER', col('email')), email)] }, raw: true, transaction });
  if (rows.length === 0) return;
  await models.CampaignRecipient.update({ email: '', name: '', first_name: '', last_name: '', merge_fields: null }, { where: { id: rows.map((r) => r.id) }, transaction });
  await redactSends(ctx, accountId, rows.flatMap((r) => (r.send_id ? [r.send_id] : [])), transaction);
}

export async function eraseCampaignRecipient(ctx: Pick<ServiceContext, 'models'>, accountId: number, memberId: number, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const rows = await models.CampaignRecipient.findAll({ attributes: ['send_id'], where: { account_id: accountId, member_id: memberId }, raw: true, transaction });
  const sendIds = rows.flatMap((r) => (r.send_id ? [r.send_id] : []));
  await models.CampaignRecipient.update(
    { email: '', name: '', first_name: '', last_name: '', merge_fields: null },
    { where: { account_id: accountId, member_id: memberId }, transaction },
  );
  await redactSends(ctx, accountId, sendIds, transaction);
}
