// What an automation would send, date by date, without sending or saving anything: previewTrigger (a trigger
// that may not be saved yet) and findOne's next_firings (an enabled automation's next 30 days). Both run the due
// module over the members in scope, exactly as a firing does, and place each card as the firing does (its zone and
// instant: services/automations/local-plan.ts).
import { missingField, unknownCustomField } from '../../lib/errors.ts';
import type { AutomationEventType } from '../../models/Automation.ts';
import { loadAccountSettings, type QuietHours } from '../account-settings.ts';
import type { ServiceContext } from '../context.ts';
import { checkReferences, findAutomation, triggerFor, type MilestoneRuleInput } from './automations.ts';
import { drawFrom, ecardCandidates } from './draw.ts';
import { dueConfigOf, type AutomationConfig } from './config.ts';
import { addDays, dueOccasions, lastPassedDate, sendInstant, type DueConfig, type LocalDate, type Occasion, type TimingConfig } from './due.ts';
import { memberZone, planFiringCards } from './local-plan.ts';
import { activeMembers, inScope, membersInScope, reachesEveryone, type ScopedMember } from './members.ts';
import { customFieldOf, isActiveCustomField, missingTriggerFields, type TriggerFields } from './validate.ts';

export const NEXT_FIRINGS_DAYS = 30;

export interface PreviewOccasion {
  member_id: number;
  name?: string;
  email?: string;
  event: AutomationEventType;
  occasion_date: LocalDate;
  years?: number;
  ecard_id?: number;
  /** The zone the card follows: the member's own with recipient_timezone (else the automation's), as the firing places it. */
  zone: string;
  /** When the card goes: send_time on the date in that zone with recipient_timezone, after the member's quiet hours. */
  send_at: string;
}

export interface PreviewFiring {
  local_date: LocalDate;
  send_at: string;
  occasions: PreviewOccasion[];
}

/** An automation's eCards: the selected ones, each milestone rule's own, and which of them are enabled. */
interface EcardChoice {
  automationId: number;
  selected: readonly number[];
  byRule: ReadonlyArray<readonly number[]>;
  enabled: ReadonlySet<number>;
}

/**
 * The eCard a card would be sent with, drawn as the preparation draws it (services/automations/prepare.ts): from its
 * milestone rule's own eCards when the rule has any, else the selected ones, the enabled ones only.
 */
function ecardOf(choice: EcardChoice, occasion: Occasion): number | undefined {
  const own = occasion.milestone_index === undefined ? undefined : choice.byRule[occasion.milestone_index];
  const usable = ecardCandidates(choice.selected, own).filter((id) => choice.enabled.has(id));
  return drawFrom(usable, choice.automationId, occasion.member_id, occasion.occurrence_key);
}

const fullName = (m: ScopedMember) => [m.first_name, m.last_name].filter(Boolean).join(' ');

interface Place {
  zone: string;
  sendAt: Date;
  /** The instant of the firing that sends it (its zone's Schedule's, with recipient_timezone). */
  firesAt: Date;
}

/** Where a firing would place each member's card: the firing's own plan, one per zone (the zone's Schedule). */
function placesOf(config: DueConfig, date: LocalDate, members: readonly ScopedMember[], quiet: QuietHours | null): Map<number, Place> {
  const timing = config.timing_config;
  const zones = timing.recipient_timezone ? new Set(members.map((m) => memberZone(m, timing.timezone))) : new Set([null]);
  const places = new Map<number, Place>();
  for (const firingZone of zones) {
    const plan = planFiringCards({ members, timing, firingZone, firingDate: date, quiet });
    for (const card of plan.cards) places.set(card.member.id, { zone: card.zone, sendAt: card.sendAt, firesAt: plan.at });
  }
  return places;
}

/**
 * The send dates in (window.from, window.to] that have occasions, each with its occasions and where each card goes;
 * with `notBefore`, the cards whose zone's firing has already passed (an earlier zone's) are left out.
 */
function firingsOf(
  config: DueConfig,
  members: readonly ScopedMember[],
  window: { from: LocalDate; to: LocalDate },
  choice: EcardChoice | null,
  showContact: boolean,
  quiet: QuietHours | null,
  notBefore: Date | null,
): PreviewFiring[] {
  const byId = new Map(members.map((m) => [m.id, m]));
  const byDate = new Map<LocalDate, Occasion[]>();
  for (const occasion of dueOccasions(config, members, window)) byDate.set(occasion.send_date, [...(byDate.get(occasion.send_date) ?? []), occasion]);
  const firings: PreviewFiring[] = [];
  for (const [date, occasions] of byDate) {
    const places = placesOf(config, date, [...new Set(occasions.map((o) => byId.get(o.member_id)!))], quiet);
    const shown: PreviewOccasion[] = [];
    for (const occasion of occasions) {
      const member = byId.get(occasion.member_id)!;
      const place = places.get(occasion.member_id);
      if (!place || (notBefore && place.firesAt <= notBefore)) continue;
      const ecard = choice ? ecardOf(choice, occasion) : undefined;
      shown.push({
        member_id: occasion.member_id,
        ...(showContact ? { name: fullName(member), email: member.email } : {}),
        event: occasion.event,
        occasion_date: occasion.occasion_date,
        ...(occasion.years !== undefined ? { years: occasion.years } : {}),
        ...(ecard !== undefined ? { ecard_id: ecard } : {}),
        zone: place.zone,
        send_at: place.sendAt.toISOString(),
      });
    }
    if (!shown.length) continue;
    const send_at = sendInstant(date, config.timing_config.send_time, config.timing_config.timezone).toISOString();
    firings.push({ local_date: date, send_at, occasions: shown });
  }
  return firings;
}

/** The next date whose send_time has not passed at `now`: where previews and next_firings start by default. */
function firstOpenDate(now: Date, timing: TimingConfig): LocalDate {
  return addDays(lastPassedDate(now, timing.send_time, timing.timezone), 1);
}

async function enabledEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, ids: readonly number[]): Promise<Set<number>> {
  const { models } = ctx;
  if (!ids.length) return new Set();
  const rows = await models.Ecard.findAll({ attributes: ['id'], where: { id: [...new Set(ids)], account_id: accountId, disabled: false } });
  return new Set(rows.map((e) => e.id));
}

function choiceOf(automationId: number, selected: readonly number[], rules: ReadonlyArray<{ ecard_ids?: readonly number[] | undefined }>, enabled: ReadonlySet<number>): EcardChoice {
  return { automationId, selected, byRule: rules.map((r) => r.ecard_ids ?? []), enabled };
}

export interface PreviewInput {
  trigger_type: AutomationEventType;
  trigger_config: TriggerFields;
  timing_config: TimingConfig;
  milestone_rules?: MilestoneRuleInput[] | undefined;
  automation_id?: number | undefined;
  days: number;
  from?: LocalDate | undefined;
}

/**
 * The firings a trigger would make over `days` send dates from `from` (default: the next date whose send_time
 * has not passed), over the automation's scope (with its eCards) or every active member. Saves nothing.
 */
export async function previewTrigger(
  ctx: ServiceContext,
  accountId: number,
  input: PreviewInput,
  showContact: boolean,
): Promise<{ timezone: string; firings: PreviewFiring[] }> {
  const automation = input.automation_id ? await findAutomation(ctx, accountId, input.automation_id) : null;
  await checkReferences(ctx, accountId, { ecards: (input.milestone_rules ?? []).flatMap((r) => r.ecard_ids ?? []) });
  // Rules not sent: the automation's own, when previewing one.
  const rules: ReadonlyArray<MilestoneRuleInput | AutomationConfig['milestone_rules'][number]> = input.milestone_rules ?? automation?.milestone_rules ?? [];
  const trigger = triggerFor(input.trigger_type, input.trigger_config);
  const missing = missingTriggerFields(input.trigger_type, trigger, rules).map((field) => `${field} is required for ${input.trigger_type}`);
  if (missing.length) throw missingField(missing[0]!, { messages: missing });
  const field = customFieldOf(input.trigger_type, trigger);
  if (field && !(await isActiveCustomField(ctx, accountId, field.key))) {
    throw unknownCustomField(`${field.name}: ${JSON.stringify(field.key)} is not an active custom date field of this account`);
  }

  const timing = input.timing_config;
  const from = input.from ?? firstOpenDate(ctx.now(), timing);
  const window = { from: addDays(from, -1), to: addDays(from, input.days - 1) };
  const config = { event_type: input.trigger_type, trigger_config: trigger, timing_config: timing, milestone_rules: rules } as DueConfig;
  const members = automation ? await membersInScope(ctx, automation) : await activeMembers(ctx, accountId);
  let choice: EcardChoice | null = null;
  if (automation) {
    const enabled = await enabledEcards(ctx, accountId, [...automation.selected_ecard_ids, ...rules.flatMap((r) => r.ecard_ids ?? [])]);
    choice = choiceOf(automation.row.id, automation.selected_ecard_ids, rules, enabled);
  }
  const { quiet_hours: quiet } = await loadAccountSettings(ctx, accountId);
  // From the next open date (no `from` given), a zone whose send_time on it has passed has fired already.
  const notBefore = input.from ? null : ctx.now();
  return { timezone: timing.timezone, firings: firingsOf(config, members, window, choice, showContact, quiet, notBefore) };
}

/**
 * next_firings of each automation (one account's): the next 30 send dates' firings of the enabled ones, [] for
 * the others. The account's members are loaded once when several automations need them.
 */
export async function nextFirings(ctx: ServiceContext, configs: readonly AutomationConfig[], showContact: boolean): Promise<Map<number, PreviewFiring[]>> {
  const result = new Map<number, PreviewFiring[]>(configs.map((c) => [c.row.id, []]));
  const due = configs.flatMap((c) => {
    const dueConfig = c.row.enabled ? dueConfigOf(c) : null;
    return dueConfig?.timing_config.send_time && dueConfig.timing_config.timezone ? [{ config: c, dueConfig }] : [];
  });
  if (!due.length) return result;
  const accountId = due[0]!.config.row.account_id;
  const shared = due.length > 1 || due.some(({ config }) => reachesEveryone(config)) ? await activeMembers(ctx, accountId) : null;
  const enabled = await enabledEcards(ctx, accountId, due.flatMap(({ config }) => [...config.selected_ecard_ids, ...config.milestone_rules.flatMap((r) => r.ecard_ids)]));
  const now = ctx.now();
  const { quiet_hours: quiet } = await loadAccountSettings(ctx, accountId);
  for (const { config, dueConfig } of due) {
    const members = shared ? shared.filter((m) => inScope(config, m)) : await membersInScope(ctx, config);
    const from = firstOpenDate(now, dueConfig.timing_config);
    const window = { from: addDays(from, -1), to: addDays(from, NEXT_FIRINGS_DAYS - 1) };
    const choice = choiceOf(config.row.id, config.selected_ecard_ids, config.milestone_rules, enabled);
    try {
      result.set(config.row.id, firingsOf(dueConfig, members, window, choice, showContact, quiet, now));
    } catch (err) {
      // A stored configuration the due module cannot read (it was validated when enabled): shown as no firings.
      ctx.logger.warn({ err, automationId: config.row.id }, 'could not compute the next firings of an automation');
    }
  }
  return result;
}
