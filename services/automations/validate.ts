// What an automation needs before it may be enabled (decisions.md): each missing item named in one 422
// automation_incomplete. The fields each event type's trigger needs are shared with previewTrigger.
import type { ServiceContext } from '../context.ts';
import type { Transaction } from 'sequelize';
import { automationIncomplete } from '../../lib/errors.ts';
import type { AutomationEventType } from '../../models/Automation.ts';
import { compareDates, lastPassedDate, sendDateOf, type TimingConfig } from './due.ts';

/** A trigger_config as stored: the fields of its event type only (see triggerFor in ./automations.ts). */
export interface TriggerFields {
  years?: number[] | undefined;
  month?: number | undefined;
  day?: number | undefined;
  name?: string | undefined;
  date?: string | undefined;
  field?: string | undefined;
  date_field?: string | undefined;
  days_after_hire?: number | undefined;
}

export interface RuleWithEcards {
  after_years?: number | undefined;
  after_months?: number | undefined;
  after_days?: number | undefined;
  ecard_ids: readonly number[];
}

/** An automation as it would be after a save: what the checks read. */
export interface AutomationState {
  id: number | null;
  account_id: number;
  event_type: AutomationEventType;
  trigger_config: TriggerFields;
  timing_config: Partial<TimingConfig> | null;
  from_email: string | null;
  selected_ecard_ids: readonly number[];
  milestone_rules: readonly RuleWithEcards[];
  gift_card_enabled: boolean;
  gift_card: unknown;
}

const opt = (transaction?: Transaction) => (transaction ? { transaction } : {});

/** The trigger fields the event type needs that are absent, by their names in the request. */
export function missingTriggerFields(eventType: AutomationEventType, trigger: TriggerFields, rules: readonly unknown[]): string[] {
  const absent = (names: Array<keyof TriggerFields>) => names.filter((n) => trigger[n] === undefined).map((n) => `trigger_config.${n}`);
  switch (eventType) {
    case 'holiday':
      return absent(['month', 'day', 'name']);
    case 'fixed_date':
      return trigger.date !== undefined || (trigger.month !== undefined && trigger.day !== undefined)
        ? []
        : ['trigger_config.date (or trigger_config.month and trigger_config.day)'];
    case 'custom_field':
      return absent(['field']);
    case 'rule_based':
      return rules.length ? [] : ['milestone_rules'];
    case 'onboarding':
      return absent(['days_after_hire']);
    default:
      return [];
  }
}

/** The custom date field the trigger reads (its key and where it was named), if it reads one. */
export function customFieldOf(eventType: AutomationEventType, trigger: TriggerFields): { key: string; name: string } | null {
  if (eventType === 'custom_field' && trigger.field !== undefined) return { key: trigger.field, name: 'trigger_config.field' };
  if (eventType === 'rule_based' && trigger.date_field !== undefined && !['hire_date', 'date_of_birth'].includes(trigger.date_field)) {
    return { key: trigger.date_field, name: 'trigger_config.date_field' };
  }
  return null;
}

export async function isActiveCustomField(ctx: Pick<ServiceContext, 'models'>, accountId: number, key: string, transaction?: Transaction): Promise<boolean> {
  const { models } = ctx;
  return (await models.CustomField.count({ where: { account_id: accountId, field_key: key, active: true }, ...opt(transaction) })) > 0;
}

// Every occasion needs an enabled eCard: the selected ones, or (rule_based, and anniversary with only some
// years) each rule's own.
/**
 * Whether an automation has an eCard for every occasion: a usable selected eCard, or (rule_based, and an anniversary
 * limited to some years) one of each rule's own. Also the rule an eCard deletion applies to what is left.
 */
export function hasEcards(
  state: Pick<AutomationState, 'event_type' | 'selected_ecard_ids' | 'milestone_rules'> & { trigger_config: { years?: readonly number[] | undefined } },
  usable: (ecardId: number) => boolean,
): boolean {
  const any = (ids: readonly number[]) => ids.some(usable);
  if (any(state.selected_ecard_ids)) return true;
  const rules = state.milestone_rules;
  if (state.event_type === 'rule_based') return rules.length > 0 && rules.every((r) => any(r.ecard_ids));
  if (state.event_type === 'anniversary') {
    const years = state.trigger_config.years ?? [];
    return years.length > 0 && years.every((year) => any(rules.find((r) => r.after_years === year)?.ecard_ids ?? []));
  }
  return false;
}

/** What enabling needs that the automation lacks, each as a short phrase; [] when it may be enabled. */
export async function missingForEnable(ctx: Pick<ServiceContext, 'models'>, state: AutomationState, now: Date, transaction?: Transaction): Promise<string[]> {
  const { models } = ctx;
  const missing: string[] = [];
  const ids = [...new Set([...state.selected_ecard_ids, ...state.milestone_rules.flatMap((r) => r.ecard_ids)])];
  const enabled = ids.length
    ? new Set((await models.Ecard.findAll({ attributes: ['id'], where: { id: ids, account_id: state.account_id, disabled: false }, ...opt(transaction) })).map((e) => e.id))
    : new Set<number>();
  if (!hasEcards(state, (id) => enabled.has(id))) missing.push('at least one enabled eCard (selected_ecard_ids)');
  missing.push(...missingTriggerFields(state.event_type, state.trigger_config, state.milestone_rules));
  const field = customFieldOf(state.event_type, state.trigger_config);
  if (field && !(await isActiveCustomField(ctx, state.account_id, field.key, transaction))) {
    missing.push(`an active custom date field for ${field.name} (${JSON.stringify(field.key)} is not one)`);
  }
  const timing = state.timing_config;
  if (!timing?.send_time) missing.push('timing_config.send_time');
  if (!timing?.timezone) missing.push('timing_config.timezone');
  if (!state.from_email) missing.push('from_email');
  if (state.gift_card_enabled && !state.gift_card) missing.push('gift_card (gift_card_enabled is on)');
  // A one-time date must still have a firing ahead: its send date after the last one whose send_time has passed.
  const date = state.event_type === 'fixed_date' ? state.trigger_config.date : undefined;
  if (date && timing?.send_time && timing.timezone) {
    const complete = timing as TimingConfig;
    if (compareDates(sendDateOf(date, complete), lastPassedDate(now, complete.send_time, complete.timezone)) <= 0) {
      missing.push(`a one-time date not past (trigger_config.date ${date} has passed)`);
    }
  }
  return missing;
}

/** 422 automation_incomplete naming each missing item (also in `missing` beside the envelope). */
export async function assertEnableable(ctx: Pick<ServiceContext, 'models'>, state: AutomationState, now: Date, transaction?: Transaction): Promise<void> {
  const missing = await missingForEnable(ctx, state, now, transaction);
  if (!missing.length) return;
  const subject = state.id ? `Automation ${state.id}` : 'The automation';
  const messages = missing.map((m) => `${subject} needs ${m} to be enabled`);
  throw automationIncomplete(messages[0]!, { messages, extra: { missing } });
}
