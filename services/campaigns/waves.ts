// A campaign's waves in the database: planned when it is scheduled or sent (each recipient's zone read then: the
// member's, else the CSV row's `timezone` column, else the account default), written as campaign_waves rows with
// their recipients' wave_id and the quota reserved per wave against that wave's month; cleared (quota back) when it
// is unscheduled or planned again.
import { literal, Op, QueryTypes, type Transaction } from 'sequelize';
import { invalidValue, wouldExceedLimit } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Campaign } from '../../models/Campaign.ts';
import { loadAccountSettings } from '../account-settings.ts';
import type { ServiceContext } from '../context.ts';
import { billingMonth, quotaRemaining, releaseQuota, reserveQuota } from '../sends/accept/quota.ts';
import { canonicalTimeZone } from './schedule-time.ts';
import { delaysAny, planWaves, recipientZone, type PlannedWave, type WaveRecipient, type WaveTime } from './wave-plan.ts';

const PAGE = 5000;
const CHUNK = 1000;

/** The CSV column that names a row's zone (its merge key; it stays a merge field too). */
export const CSV_TIMEZONE_KEY = 'timezone';

function csvZoneOf(mergeFields: string | null): string | null {
  if (!mergeFields) return null;
  const value = (JSON.parse(mergeFields) as Record<string, string>)[CSV_TIMEZONE_KEY];
  return value?.trim() || null;
}

/**
 * The pending recipients with their zones. An unreadable CSV zone is 422 naming the rows when the campaign goes out
 * in each recipient's zone (`strict`); when only quiet hours ask, such a row takes the account default.
 */
async function recipientsWithZones(ctx: Pick<ServiceContext, 'models'>, campaign: Campaign, defaultZone: string, strict: boolean, transaction: Transaction): Promise<WaveRecipient[]> {
  const { models } = ctx;
  const result: WaveRecipient[] = [];
  const bad: string[] = [];
  for (let after = 0; ; ) {
    const rows = await models.sequelize.query<{ id: number; email: string; merge_fields: string | null; member_zone: string | null }>(
      `SELECT r.id, r.email, r.merge_fields, m.timezone AS member_zone FROM campaign_recipients r
       LEFT JOIN team_members m ON m.id = r.member_id AND m.account_id = r.account_id
       WHERE r.campaign_id = :campaignId AND r.status = 'pending' AND r.id > :after ORDER BY r.id LIMIT ${PAGE}`,
      { type: QueryTypes.SELECT, replacements: { campaignId: campaign.id, after }, transaction },
    );
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1]!.id);
    for (const r of rows) {
      let csvZone = r.member_zone ? null : csvZoneOf(r.merge_fields);
      if (csvZone) {
        try {
          csvZone = canonicalTimeZone(csvZone);
        } catch {
          if (strict) bad.push(r.email);
          csvZone = null;
        }
      }
      result.push({ id: Number(r.id), timeZone: recipientZone(r.member_zone, csvZone, defaultZone) });
    }
  }
  if (bad.length) {
    throw invalidValue(`The timezone column of ${bad.length} recipient(s) is not an IANA time zone name (${bad.slice(0, 5).join(', ')}); fix it or leave it empty for the account's default`, {
      extra: { recipients: bad.slice(0, 20) },
    });
  }
  return result;
}

/** Plans the waves: always for a campaign in each recipient's zone; for one instant, only when quiet hours delay someone. */
export async function planCampaignWaves(
  ctx: ServiceContext,
  account: Account,
  campaign: Campaign,
  time: WaveTime,
  now: Date,
  transaction: Transaction,
): Promise<PlannedWave[] | null> {
  const settings = await loadAccountSettings(ctx, account.id, transaction);
  if ('instant' in time && !settings.quiet_hours) return null;
  const recipients = await recipientsWithZones(ctx, campaign, settings.default_timezone, 'wall' in time, transaction);
  const waves = planWaves(recipients, time, settings.quiet_hours, now);
  return 'instant' in time && !delaysAny(waves, time.instant) ? null : waves;
}

/** Writes the planned waves, points each recipient at its wave, and reserves each wave's quota in its month. */
export async function writeCampaignWaves(ctx: ServiceContext, account: Account, campaign: Campaign, waves: PlannedWave[], transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const limit = ctx.config.emailsPerMonth[account.plan];
  const sandbox = account.mode === 'sandbox';
  // Each month's need at once, so a refusal names the whole month's figure.
  const needs = new Map<string, number>();
  for (const w of waves) needs.set(billingMonth(w.sendAt), (needs.get(billingMonth(w.sendAt)) ?? 0) + w.recipientIds.length);
  if (!sandbox) {
    for (const [month, count] of needs) {
      if (!(await reserveQuota(ctx, account.id, month, count, limit, transaction))) {
        const remaining = await quotaRemaining(ctx, account.id, month, limit, transaction);
        throw wouldExceedLimit(`The ${account.plan} plan has ${remaining} emails left for ${month}; this campaign's waves in that month need ${count}`, {
          extra: { needed: count, remaining, month },
        });
      }
    }
  }
  for (const w of waves) {
    const row = await models.CampaignWave.create(
      { campaign_id: campaign.id, timezone: w.timezone, send_at: w.sendAt, recipients: w.recipientIds.length, quota_month: sandbox ? null : billingMonth(w.sendAt), quota_count: sandbox ? 0 : w.recipientIds.length },
      { transaction },
    );
    for (let i = 0; i < w.recipientIds.length; i += CHUNK) {
      await models.CampaignRecipient.update({ wave_id: row.id }, { where: { id: w.recipientIds.slice(i, i + CHUNK) }, transaction });
    }
  }
}

/** Removes the campaign's waves, their quota given back and their recipients no longer in any. */
export async function clearCampaignWaves(ctx: Pick<ServiceContext, 'models'>, campaign: Campaign, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const waves = await models.CampaignWave.findAll({ where: { campaign_id: campaign.id }, transaction });
  if (waves.length === 0) return;
  for (const w of waves) if (w.quota_month) await releaseQuota(ctx, campaign.account_id, w.quota_month, w.quota_count, transaction);
  const ids = waves.map((w) => w.id);
  const rows = await models.CampaignRecipient.findAll({ attributes: ['id'], where: { campaign_id: campaign.id, wave_id: ids }, raw: true, transaction });
  for (let i = 0; i < rows.length; i += CHUNK) {
    await models.CampaignRecipient.update({ wave_id: null }, { where: { id: rows.slice(i, i + CHUNK).map((r) => r.id) }, transaction });
  }
  await models.CampaignWave.destroy({ where: { id: ids }, transaction });
}

/** Quota of a wave's recipients that will not be sent (skipped, failed, canceled) goes back to its month. */
export async function releaseWaveQuota(ctx: Pick<ServiceContext, 'models'>, accountId: number, waveId: number, count: number, transaction?: Transaction): Promise<number> {
  const { models } = ctx;
  if (count <= 0) return 0;
  const wave = await models.CampaignWave.findByPk(waveId, transaction ? { transaction } : {});
  if (!wave?.quota_month) return 0;
  const released = Math.min(count, wave.quota_count);
  if (released <= 0) return 0;
  const [changed] = await models.CampaignWave.update(
    { quota_count: literal(`quota_count - ${Number(released)}`) },
    { where: { id: waveId, quota_count: { [Op.gte]: released } }, ...(transaction ? { transaction } : {}) },
  );
  if (changed) await releaseQuota(ctx, accountId, wave.quota_month, released, transaction);
  return changed ? released : 0;
}
