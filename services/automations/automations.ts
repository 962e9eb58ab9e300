// Automations as resources: find, list, and save (create, partial update, enable and disable). A save checks
// everything before writing, in one transaction under the account's lock: the automation's ownership and every
// referenced id (404), what enabling needs (422), the gift-card token (403). After the commit the automation's
// Schedule is synced (never fails the save).
import { Op, type CreationAttributes, type Transaction, type WhereOptions } from 'sequelize';
import { invalidParameter, invalidValue, notFound, requireFields } from '../../lib/errors.ts';
import type { Automation, AutomationEventType } from '../../models/Automation.ts';
import type { AutomationEcardRole } from '../../models/AutomationEcard.ts';
import { accountTransaction } from '../account-lock.ts';
import { loadAccountSettings } from '../account-settings.ts';
import { spendToken } from '../confirmation-tokens.ts';
import type { ServiceContext } from '../context.ts';
import { checkGiftAmount } from '../rewards/catalog.ts';
import { loadSettings } from '../rewards/settings.ts';
import { timeInQuietHours } from '../local-time/quiet-hours.ts';
import { keywordWhere } from '../search.ts';
import { sanitizeHtmlField } from '../ecards/templates.ts';
import { loadConfig, loadConfigs, type AutomationConfig } from './config.ts';
import { lastPassedDate, type TimingConfig } from './due.ts';
import { chunks } from './members.ts';
import { syncAutomationSchedule } from './schedule.ts';
import { assertEnableable, type AutomationState, type TriggerFields } from './validate.ts';

export interface MilestoneRuleInput {
  after_years?: number | undefined;
  after_months?: number | undefined;
  after_days?: number | undefined;
  ecard_ids?: number[] | undefined;
  messages?: string[] | undefined;
}

export interface AutomationInput {
  automation_name?: string | undefined;
  event_type?: AutomationEventType | undefined;
  enabled?: boolean | undefined;
  from_name?: string | null | undefined;
  from_email?: string | null | undefined;
  locale?: string | undefined;
  /** null: empty. */
  trigger_config?: TriggerFields | null | undefined;
  timing_config?: Partial<TimingConfig> | null | undefined;
  random_messages?: string[] | null | undefined;
  selected_ecard_ids?: number[] | null | undefined;
  selected_member_ids?: number[] | null | undefined;
  selected_department_ids?: number[] | null | undefined;
  milestone_rules?: MilestoneRuleInput[] | null | undefined;
  notify_days_before?: number | undefined;
  notification_segment?: { member_ids: number[]; department_ids: number[] } | null | undefined;
  gift_card_enabled?: boolean | undefined;
  gift_card?: { product_id: string; amount: number } | null | undefined;
}

export interface References {
  ecards?: readonly number[];
  members?: readonly number[];
  departments?: readonly number[];
}

const opt = (transaction?: Transaction) => (transaction ? { transaction } : {});

export async function findAutomation(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<AutomationConfig> {
  const config = await loadConfig(ctx, accountId, id, transaction);
  if (!config) throw notFound(`No automation with id ${id}`);
  return config;
}

async function existingIds(find: (ids: number[]) => Promise<Array<{ id: number }>>, ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (const part of chunks([...new Set(ids)])) for (const row of await find(part)) found.add(row.id);
  return found;
}

/**
 * 404 naming every referenced id that is not the account's: eCards (outside campaigns: a campaign's copies are
 * not the account's catalogue), members (active or not) and departments.
 */
export async function checkReferences(ctx: Pick<ServiceContext, 'models'>, accountId: number, refs: References, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  const where = (ids: number[]) => ({ id: ids, account_id: accountId });
  const kinds: Array<[string, readonly number[], (ids: number[]) => Promise<Array<{ id: number }>>]> = [
    ['eCard', refs.ecards ?? [], (ids) => models.Ecard.findAll({
      attributes: ['id'], where: where(ids), include: [{ model: models.Widget, attributes: [], required: true, where: { is_campaign: false } }], ...opt(transaction),
    })],
    ['team member', refs.members ?? [], (ids) => models.TeamMember.findAll({ attributes: ['id'], where: where(ids), ...opt(transaction) })],
    ['department', refs.departments ?? [], (ids) => models.Department.findAll({ attributes: ['id'], where: where(ids), ...opt(transaction) })],
  ];
  const messages: string[] = [];
  for (const [noun, ids, find] of kinds) {
    if (!ids.length) continue;
    const found = await existingIds(find, ids);
    const missing = [...new Set(ids)].filter((id) => !found.has(id));
    if (missing.length) messages.push(`No ${noun} with id ${missing.join(', ')}`);
  }
  if (messages.length) throw notFound(messages[0]!, { messages });
}

/** The trigger_config kept for an event type: its own fields only (a field of another type is dropped). */
export function triggerFor(eventType: AutomationEventType, config: TriggerFields): TriggerFields {
  const { years, month, day, name, date, field, date_field, days_after_hire } = config;
  const defined = (fields: TriggerFields) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as TriggerFields;
  switch (eventType) {
    case 'birthday':
      return {};
    case 'anniversary':
      return defined({ years });
    case 'holiday':
      return defined({ month, day, name });
    case 'fixed_date':
      if (date !== undefined && (month !== undefined || day !== undefined)) {
        throw invalidParameter('trigger_config: a fixed_date takes either date (once) or month and day (every year), not both');
      }
      return date !== undefined ? { date } : defined({ month, day });
    case 'custom_field':
      return defined({ field });
    case 'rule_based':
      return defined({ date_field });
    case 'onboarding':
      return defined({ days_after_hire });
  }
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
const sanitized = (messages: readonly string[]) => messages.map((m) => sanitizeHtmlField(m));

function ruleColumn(rules: readonly MilestoneRuleInput[]) {
  return rules.map(({ ecard_ids: _ecards, messages, ...offsets }) => ({ ...offsets, ...(messages ? { messages: sanitized(messages) } : {}) }));
}

/** The row's columns for the fields that were sent (trigger_config decided by the caller). */
type Columns = Partial<CreationAttributes<Automation>>;

function columnsOf(input: AutomationInput): Columns {
  const columns: Columns = {};
  if (input.automation_name !== undefined) columns.automation_name = input.automation_name;
  if (input.event_type !== undefined) columns.event_type = input.event_type;
  if (input.enabled !== undefined) columns.enabled = input.enabled;
  if (input.from_name !== undefined) columns.from_name = input.from_name || null;
  if (input.from_email !== undefined) columns.from_email = input.from_email ? input.from_email.toLowerCase() : null;
  if (input.locale !== undefined) columns.locale = input.locale;
  if (input.timing_config !== undefined) columns.timing_config = json(input.timing_config);
  if (input.random_messages !== undefined) columns.random_messages = json(input.random_messages && sanitized(input.random_messages));
  if (input.selected_member_ids !== undefined) columns.selected_member_ids = json(input.selected_member_ids && [...new Set(input.selected_member_ids)]);
  if (input.selected_department_ids !== undefined) columns.selected_department_ids = json(input.selected_department_ids && [...new Set(input.selected_department_ids)]);
  if (input.milestone_rules !== undefined) columns.milestone_rules = json(input.milestone_rules && ruleColumn(input.milestone_rules));
  if (input.notify_days_before !== undefined) columns.notify_days_before = input.notify_days_before;
  if (input.notification_segment !== undefined) columns.notification_segment = json(input.notification_segment);
  if (input.gift_card_enabled !== undefined) columns.gift_card_enabled = input.gift_card_enabled;
  if (input.gift_card !== undefined) columns.gift_card = json(input.gift_card);
  return columns;
}

/** Every id the input refers to, for one ownership check before any write. */
function referencesOf(input: AutomationInput): Required<References> {
  return {
    ecards: [...(input.selected_ecard_ids ?? []), ...(input.milestone_rules ?? []).flatMap((r) => r.ecard_ids ?? [])],
    members: [...(input.selected_member_ids ?? []), ...(input.notification_segment?.member_ids ?? [])],
    departments: [...(input.selected_department_ids ?? []), ...(input.notification_segment?.department_ids ?? [])],
  };
}

/** Replaces the automation's eCard references of one role (milestone rows carry their rule's index). */
export async function replaceEcardRefs(
  ctx: Pick<ServiceContext, 'models'>,
  automation: Pick<Automation, 'id' | 'account_id'>,
  role: AutomationEcardRole,
  lists: ReadonlyArray<readonly number[]>,
  transaction: Transaction,
): Promise<void> {
  const { models } = ctx;
  await models.AutomationEcard.destroy({ where: { automation_id: automation.id, role }, transaction });
  const rows = lists.flatMap((ids, index) =>
    [...new Set(ids)].map((ecard_id, position) => ({
      automation_id: automation.id, account_id: automation.account_id, ecard_id, role, milestone_index: role === 'milestone' ? index : null, position,
    })));
  if (rows.length) await models.AutomationEcard.bulkCreate(rows, { transaction });
}

/** The trigger_config after the save: the one sent, else the stored one (cut to a changed event type's fields). */
function nextTrigger(eventType: AutomationEventType, input: AutomationInput, existing: AutomationConfig | null): TriggerFields {
  if (input.trigger_config !== undefined) return triggerFor(eventType, input.trigger_config ?? {});
  return existing ? triggerFor(eventType, existing.trigger_config) : {};
}

/** The automation as the save would leave it, for the enable checks. */
function stateAfter(accountId: number, existing: AutomationConfig | null, input: AutomationInput, trigger: TriggerFields, eventType: AutomationEventType): AutomationState {
  const sent = <T>(value: T | undefined, stored: T): T => (value === undefined ? stored : value);
  const rules = input.milestone_rules === undefined
    ? (existing?.milestone_rules ?? [])
    : (input.milestone_rules ?? []).map((r) => ({ ...r, ecard_ids: r.ecard_ids ?? [] }));
  return {
    id: existing?.row.id ?? null,
    account_id: accountId,
    event_type: eventType,
    trigger_config: trigger,
    timing_config: sent(input.timing_config, existing?.timing_config ?? null),
    from_email: sent(input.from_email, existing?.row.from_email ?? null) || null,
    selected_ecard_ids: sent(input.selected_ecard_ids, existing?.selected_ecard_ids ?? []) ?? [],
    milestone_rules: rules,
    gift_card_enabled: sent(input.gift_card_enabled, existing?.row.gift_card_enabled ?? false),
    gift_card: sent<unknown>(input.gift_card, existing?.gift_card ?? null),
  };
}

/** JSON with object keys sorted and undefined dropped: equal values give equal text whatever the key order. */
function canonical(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] !== undefined).map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    }
    return v;
  };
  return JSON.stringify(sorted(value) ?? null);
}

const idSet = (ids: readonly number[] | null | undefined) => canonical([...new Set(ids ?? [])].sort((a, b) => a - b));

/**
 * The gift, audience and trigger fields this save changes in an existing automation (decisions.md, "Console
 * privilege"): sending the values it already has changes nothing. Member and department ids compare as sets;
 * milestone rules as stored (offsets, sanitized messages, their eCards in order).
 */
function giftGatedChanges(existing: AutomationConfig, input: AutomationInput, eventType: AutomationEventType, trigger: TriggerFields): string[] {
  const changed: string[] = [];
  if (eventType !== existing.row.event_type) changed.push('event_type');
  if (canonical(trigger) !== canonical(triggerFor(existing.row.event_type, existing.trigger_config))) changed.push('trigger_config');
  if (input.selected_member_ids !== undefined && idSet(input.selected_member_ids) !== idSet(existing.selected_member_ids)) changed.push('selected_member_ids');
  if (input.selected_department_ids !== undefined && idSet(input.selected_department_ids) !== idSet(existing.selected_department_ids)) {
    changed.push('selected_department_ids');
  }
  if (input.milestone_rules !== undefined) {
    const next = ruleColumn(input.milestone_rules ?? []).map((rule, i) => ({ ...rule, ecard_ids: [...new Set(input.milestone_rules![i]!.ecard_ids ?? [])] }));
    if (canonical(next) !== canonical(existing.milestone_rules)) changed.push('milestone_rules');
  }
  if (input.gift_card !== undefined && canonical(input.gift_card) !== canonical(existing.gift_card)) changed.push('gift_card');
  return changed;
}

/**
 * Creates (no id) or updates the automation with the fields sent. Enabling, or saving an enabled automation,
 * validates the whole configuration; turning it on sets the watermark to the last date whose send_time has
 * passed (nothing before now is sent). `save` with only `id` and `enabled` is the toggle.
 */
export async function saveAutomation(
  ctx: ServiceContext,
  accountId: number,
  id: number | undefined,
  input: AutomationInput,
  token: string | undefined,
): Promise<AutomationConfig> {
  const { models } = ctx;
  if (!id) requireFields({ 'automation.automation_name': input.automation_name, 'automation.event_type': input.event_type });
  // A gift's amount within the bounds (whatever the velocity setting); its spend is reserved card by card at claim.
  if (input.gift_card) checkGiftAmount(await loadSettings(ctx, accountId), input.gift_card.amount);
  await refuseQuietSendTime(ctx, accountId, input.timing_config?.send_time);
  const { config, scheduleChanged } = await accountTransaction(ctx, accountId, async (transaction) => {
    const existing = id ? await findAutomation(ctx, accountId, id, transaction) : null;
    await checkReferences(ctx, accountId, referencesOf(input), transaction);

    const eventType = input.event_type ?? existing!.row.event_type;
    const trigger = nextTrigger(eventType, input, existing);
    const now = ctx.now();
    const wasEnabled = existing?.row.enabled ?? false;
    const timingBefore = existing?.row.timing_config ?? null;
    const enabled = input.enabled ?? wasEnabled;
    const state = stateAfter(accountId, existing, input, trigger, eventType);
    if (enabled) await assertEnableable(ctx, state, now, transaction);

    // Gift cards: a create needs a token without resource; enabling, or turning gifts on while enabled, one for it;
    // so does changing the gift, audience or trigger of an enabled gift-card automation that stays so.
    const giftTurnsOn = existing
      ? state.gift_card_enabled && enabled && (!wasEnabled || !existing.row.gift_card_enabled)
      : state.gift_card_enabled;
    const gatedChanges = existing && !giftTurnsOn && state.gift_card_enabled && enabled ? giftGatedChanges(existing, input, eventType, trigger) : [];
    if (giftTurnsOn || gatedChanges.length) {
      await spendToken(ctx, {
        accountId,
        purpose: 'gc_automation_enable',
        resourceId: existing ? String(existing.row.id) : null,
        token,
        now,
        message: !existing
          ? 'Creating a gift-card automation needs a gc_confirmation_token (gc_automation_enable, issued without an automation)'
          : gatedChanges.length
            ? `Changing ${gatedChanges.join(', ')} of the enabled gift-card automation ${existing.row.id} needs a gc_confirmation_token issued for it`
            : `Enabling the gift-card automation ${existing.row.id} needs a gc_confirmation_token issued for it`,
      }, transaction);
    }

    const columns = { ...columnsOf(input), trigger_config: JSON.stringify(trigger) };
    // Turning on, or switching an enabled automation between one zone and each recipient's, starts afresh: nothing
    // up to now is sent (zone watermarks still held too; the Schedules' sync writes those of new zones).
    const zoneModeChanged = Boolean(existing?.timing_config?.recipient_timezone) !== Boolean(state.timing_config?.recipient_timezone);
    if (enabled && (!wasEnabled || zoneModeChanged)) {
      const timing = state.timing_config as TimingConfig;
      columns.watermark = lastPassedDate(now, timing.send_time, timing.timezone);
      if (existing) {
        for (const held of await models.AutomationZoneWatermark.findAll({ where: { automation_id: existing.row.id }, transaction })) {
          await held.update({ watermark: lastPassedDate(now, timing.send_time, held.zone) }, { transaction });
        }
      }
    }
    let row: Automation;
    if (existing) {
      row = existing.row;
      row.set(columns);
      row.changed('updated_at', true);
      await row.save({ transaction });
    } else {
      row = await models.Automation.create({ ...columns, account_id: accountId, automation_name: input.automation_name!, event_type: eventType }, { transaction });
    }
    if (input.selected_ecard_ids !== undefined) await replaceEcardRefs(ctx, row, 'selected', [input.selected_ecard_ids ?? []], transaction);
    if (input.milestone_rules !== undefined) {
      await replaceEcardRefs(ctx, row, 'milestone', (input.milestone_rules ?? []).map((r) => r.ecard_ids ?? []), transaction);
    }
    const saved = await findAutomation(ctx, accountId, row.id, transaction);
    // The Schedule depends on existence, enabled and timing only.
    return { config: saved, scheduleChanged: !existing || enabled !== wasEnabled || saved.row.timing_config !== timingBefore };
  });
  if (scheduleChanged) await syncAutomationSchedule(ctx, accountId, config.row.id);
  return config;
}

/** A send_time inside the account's quiet hours would only ever be delayed to their end: refused (422). */
async function refuseQuietSendTime(ctx: ServiceContext, accountId: number, sendTime: string | undefined): Promise<void> {
  if (!sendTime) return;
  const { quiet_hours: quiet } = await loadAccountSettings(ctx, accountId);
  if (timeInQuietHours(sendTime, quiet)) {
    throw invalidValue(`timing_config.send_time ${sendTime} is inside the account's quiet hours (${quiet!.start}-${quiet!.end}); choose a time outside them`);
  }
}

/** Sets `enabled` (never flips it): the same as a save with only `id` and `enabled`. */
export function toggleAutomation(ctx: ServiceContext, accountId: number, id: number, enabled: boolean, token: string | undefined): Promise<AutomationConfig> {
  return saveAutomation(ctx, accountId, id, { enabled }, token);
}

export interface AutomationListQuery {
  page: number;
  perPage: number;
  keyword?: string | undefined;
  eventType?: AutomationEventType | undefined;
  sortBy: 'createdat' | 'name' | 'event_type';
  sortOrder: 'asc' | 'desc';
  status: 'enabled' | 'disabled' | 'all';
}

const SORT_COLUMNS = { createdat: 'created_at', name: 'automation_name', event_type: 'event_type' } as const;

export async function listAutomations(ctx: Pick<ServiceContext, 'models'>, accountId: number, query: AutomationListQuery): Promise<{ configs: AutomationConfig[]; count: number }> {
  const { models } = ctx;
  const conditions: WhereOptions[] = [{ account_id: accountId }];
  if (query.status !== 'all') conditions.push({ enabled: query.status === 'enabled' });
  if (query.eventType) conditions.push({ event_type: query.eventType });
  if (query.keyword) conditions.push(keywordWhere(models.sequelize, ['automation_name', 'from_name', 'from_email'], query.keyword));
  const direction = query.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const { rows, count } = await models.Automation.findAndCountAll({
    where: { [Op.and]: conditions },
    order: [[SORT_COLUMNS[query.sortBy], direction], ['id', direction]],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  return { configs: await loadConfigs(ctx, rows), count };
}
