// An automation's configuration as one typed value: its row's JSON text parsed, and its eCard references
// (automation_ecards) put back where the API shows them. The API's presenter, previewTrigger and the firing
// read automations through here, so they all see the same thing.
import type { ServiceContext } from '../context.ts';
import type { Transaction } from 'sequelize';
import type { Automation } from '../../models/Automation.ts';
import { NOTIFICATION_TYPES, type AutomationEcard, type NotificationType } from '../../models/AutomationEcard.ts';
import type { DueConfig, MilestoneRule, TimingConfig, Trigger } from './due.ts';

export interface StoredMilestoneRule extends Omit<MilestoneRule, 'ecard_ids'> {
  ecard_ids: number[];
}

export interface NotificationSegment {
  member_ids: number[];
  department_ids: number[];
}

export interface AutomationConfig {
  row: Automation;
  trigger_config: Record<string, unknown>;
  /** null until set (an automation can be saved disabled without it). */
  timing_config: TimingConfig | null;
  random_messages: string[];
  selected_ecard_ids: number[];
  selected_member_ids: number[];
  selected_department_ids: number[];
  milestone_rules: StoredMilestoneRule[];
  notification_segment: NotificationSegment;
  notification_ecards: Record<NotificationType, number[]>;
  gift_card: Record<string, unknown> | null;
}

const parsed = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

export function configOf(row: Automation, refs: readonly AutomationEcard[]): AutomationConfig {
  const byRole = (role: string, index?: number) =>
    refs.filter((r) => r.role === role && (index === undefined || r.milestone_index === index)).sort((a, b) => a.position - b.position).map((r) => r.ecard_id);
  const rules = parsed<Array<Omit<MilestoneRule, 'ecard_ids'>>>(row.milestone_rules, []);
  return {
    row,
    trigger_config: parsed(row.trigger_config, {}),
    timing_config: parsed(row.timing_config, null),
    random_messages: parsed(row.random_messages, []),
    selected_ecard_ids: byRole('selected'),
    selected_member_ids: parsed(row.selected_member_ids, []),
    selected_department_ids: parsed(row.selected_department_ids, []),
    milestone_rules: rules.map((rule, i) => ({ ...rule, ecard_ids: byRole('milestone', i) })),
    notification_segment: parsed(row.notification_segment, { member_ids: [], department_ids: [] }),
    notification_ecards: Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, byRole(type)])) as Record<NotificationType, number[]>,
    gift_card: parsed(row.gift_card, null),
  };
}

/** The automations' configurations (one query for their eCard references). */
export async function loadConfigs(ctx: Pick<ServiceContext, 'models'>, rows: Automation[], transaction?: Transaction): Promise<AutomationConfig[]> {
  const { models } = ctx;
  if (rows.length === 0) return [];
  const refs = await models.AutomationEcard.findAll({ where: { automation_id: rows.map((r) => r.id) }, ...(transaction ? { transaction } : {}) });
  return rows.map((row) => configOf(row, refs.filter((r) => r.automation_id === row.id)));
}

/** The account's automation, or null (another account's is null too). */
export async function loadConfig(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<AutomationConfig | null> {
  const { models } = ctx;
  const row = await models.Automation.findOne({ where: { id, account_id: accountId }, ...(transaction ? { transaction } : {}) });
  return row ? (await loadConfigs(ctx, [row], transaction))[0]! : null;
}

/** What the due module needs; null while the timing is not set. */
export function dueConfigOf(config: AutomationConfig): DueConfig | null {
  if (!config.timing_config) return null;
  return {
    event_type: config.row.event_type,
    trigger_config: config.trigger_config,
    timing_config: config.timing_config,
    milestone_rules: config.milestone_rules,
  } as Trigger & DueConfig;
}
