// Contracts of the automation endpoints: the automation object, its trigger and timing, previewTrigger and the
// notification eCards. Types and ranges are checked here (400); what enabling needs is checked by the service (422).
import { z } from 'zod';
import { localeCode } from '../../services/i18n/locale-code.ts';
import { EVENT_TYPES } from '../../models/Automation.ts';
import { NOTIFICATION_TYPES } from '../../models/AutomationEcard.ts';
import { daysInMonth, parseLocalDate } from '../../services/automations/local-date.ts';
import { PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG } from '../../services/sends/accept/personal-message.ts';
import { GiftCard } from '../campaigns/schema.ts';
import { numericId, flag, PageMeta, pageQuery, resource, sortOrder, timeZoneName, withAliases, named } from '../schema-helpers.ts';

const positiveId = z.number().int().positive();
const locale = localeCode();
const message = z.string().max(PERSONAL_MESSAGE_MAX, PERSONAL_MESSAGE_TOO_LONG);

/** An array; an object is taken as the array of its values ("sent as objects or arrays"). */
function listOf<T extends z.ZodType>(item: T, max: number, min = 0) {
  return z.preprocess(
    (value) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.values(value) : value),
    z.array(item).min(min).max(max),
  );
}

/** trigger_config.milestone_rules fills milestone_rules when that is absent (the alias decisions.md names). */
function liftMilestoneRules(input: unknown): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  const out = { ...(input as Record<string, unknown>) };
  const trigger = out.trigger_config;
  if (out.milestone_rules === undefined && trigger !== null && typeof trigger === 'object' && !Array.isArray(trigger)) {
    const rules = (trigger as Record<string, unknown>).milestone_rules;
    if (rules !== undefined) out.milestone_rules = rules;
  }
  return out;
}

const idList = (max: number) => listOf(positiveId, max);

const localDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((value) => {
    try {
      parseLocalDate(value);
      return true;
    } catch {
      return false;
    }
  }, 'not a calendar date');

/** Every field any event type uses; the service keeps those of the automation's type (decisions.md). */
export const TriggerConfigInput = z
  .object({
    years: listOf(z.number().int().min(1).max(100), 100).optional().describe('anniversary: only these years send'),
    month: z.number().int().min(1).max(12).optional().describe('holiday, yearly fixed_date'),
    day: z.number().int().min(1).max(31).optional().describe('holiday, yearly fixed_date'),
    name: z.string().trim().min(1).max(200).optional().describe('holiday'),
    date: localDate.optional().describe('one-time fixed_date, YYYY-MM-DD'),
    field: z.string().trim().min(1).max(64).optional().describe('custom_field: an active custom date field’s key'),
    date_field: z.string().trim().min(1).max(64).optional().describe('rule_based: hire_date (default), date_of_birth or a custom date field’s key'),
    days_after_hire: z.number().int().min(0).max(365).optional().describe('onboarding'),
  })
  .superRefine((config, ctx) => {
    // 29 February is a valid yearly date (it falls on 28 February in common years).
    if (config.month !== undefined && config.day !== undefined && config.day > daysInMonth(2000, config.month)) {
      ctx.addIssue({ code: 'custom', path: ['day'], message: `month ${config.month} has no day ${config.day}`, input: config.day });
    }
  });

export const TimingConfigInput = z.object({
  send_time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time HH:mm (24 h)').optional(),
  timezone: timeZoneName.optional().describe('IANA time zone name, e.g. Europe/Berlin'),
  days_before: z.number().int().min(0).max(60).optional().describe('send this many days before the occasion'),
  skip_weekends: flag.optional().describe('a send date on Saturday or Sunday moves to the Friday before'),
  recipient_timezone: flag
    .optional()
    .describe("send at send_time in each member's own time zone (members without one: `timezone`); false or absent: send_time in `timezone` for everyone"),
});

export const MilestoneRuleInput = z
  .object({
    after_years: z.number().int().min(0).max(100).optional(),
    after_months: z.number().int().min(0).max(1200).optional(),
    after_days: z.number().int().min(0).max(36_500).optional(),
    ecard_ids: resource('ecard', idList(50)).optional().describe('this occasion’s eCards, instead of selected_ecard_ids'),
    messages: listOf(message, 100).optional().describe('this occasion’s messages (HTML, sanitized), instead of random_messages'),
  })
  .superRefine((rule, ctx) => {
    const offsets = [rule.after_years, rule.after_months, rule.after_days].filter((v) => v !== undefined).length;
    if (offsets !== 1) ctx.addIssue({ code: 'custom', message: 'exactly one of after_years, after_months, after_days', input: rule });
  });

const NotificationSegmentInput = z.object({ member_ids: resource('member', idList(10_000)).default([]), department_ids: resource('department', idList(1_000)).default([]) });

const AutomationFields = z.object({
  id: resource('automation', z.number().int().min(0)).optional().describe('0 or absent creates'),
  automation_name: z.string().trim().min(1).max(200).optional().describe('required on create'),
  event_type: z.enum(EVENT_TYPES).optional().describe('required on create'),
  enabled: flag.optional().describe('turning it on validates the whole configuration (422 automation_incomplete)'),
  from_name: z.string().trim().max(200).nullable().optional(),
  from_email: z.union([z.email().max(254), z.literal('')]).nullable().optional().describe('Reply-To of the emails; needed to enable'),
  locale: locale.optional().describe('render language (default en)'),
  trigger_config: TriggerConfigInput.nullable().optional().describe('by event_type (decisions.md); replaces the stored one whole (null: empty)'),
  timing_config: TimingConfigInput.nullable().optional().describe('replaces the stored one whole'),
  random_messages: listOf(message, 100).nullable().optional().describe('HTML, sanitized; one picked per card'),
  selected_ecard_ids: resource('ecard', idList(50)).nullable().optional(),
  selected_member_ids: resource('member', idList(10_000)).nullable().optional().describe('with selected_department_ids, the scope; both empty: all active members'),
  selected_department_ids: resource('department', idList(1_000)).nullable().optional(),
  milestone_rules: listOf(MilestoneRuleInput, 100).nullable().optional().describe('alias: trigger_config.milestone_rules'),
  notify_days_before: z.number().int().min(0).max(60).optional(),
  notification_segment: NotificationSegmentInput.nullable().optional(),
  gift_card_enabled: flag.optional().describe('creating with it, or enabling with it, needs gc_confirmation_token'),
  gift_card: GiftCard.nullable().optional(),
});

export const AutomationInput = z.preprocess(liftMilestoneRules, AutomationFields);

export const SaveAutomationBody = z.object({
  automation: AutomationInput,
  gc_confirmation_token: z.string().optional().describe('a gc_automation_enable token: for a create with gift cards (no resource), enabling a gift-card automation, or changing gift_card, event_type, trigger_config, selected_member_ids, selected_department_ids or milestone_rules of an enabled one (its id)'),
});

export const ToggleAutomationBody = z.object({
  automation: z.object({ id: resource('automation', positiveId), enabled: flag.optional().describe('required: the value to set (never flipped)') }),
  gc_confirmation_token: z.string().optional(),
});

export const DeleteAutomationBody = z.object({ id: resource('automation', positiveId) });

export const AutomationIdParams = z.object({ id: resource('automation', numericId()) });

export const ListAutomationsQuery = withAliases(
  pageQuery().extend({
    keyword: z.string().optional().describe('in the name, from-name or from-email'),
    eventType: z.enum(EVENT_TYPES).optional(),
    sortBy: z.enum(['createdat', 'name', 'event_type']).default('createdat'),
    sortOrder,
    status: z.enum(['enabled', 'disabled', 'all']).default('all'),
  }),
  { eventType: ['event_type', 'eventtype', 'EventType'] },
);

// Answers.

export const TriggerConfig = z.object({
  years: z.array(z.number().int()).optional(),
  month: z.number().int().optional(),
  day: z.number().int().optional(),
  name: z.string().optional(),
  date: z.string().optional(),
  field: z.string().optional(),
  date_field: z.string().optional(),
  days_after_hire: z.number().int().optional(),
});

export const TimingConfig = z.object({
  send_time: z.string().optional(),
  timezone: z.string().optional(),
  days_before: z.number().int().optional(),
  skip_weekends: z.boolean().optional(),
  recipient_timezone: z.boolean().optional(),
});

export const MilestoneRule = z.object({
  after_years: z.number().int().optional(),
  after_months: z.number().int().optional(),
  after_days: z.number().int().optional(),
  ecard_ids: z.array(z.number().int()),
  messages: z.array(z.string()).optional(),
});

export const PreviewOccasion = z.object({
  member_id: z.number().int(),
  name: z.string().optional().describe('only for a key with directory: view'),
  email: z.string().optional().describe('only for a key with directory: view'),
  event: z.enum(EVENT_TYPES),
  occasion_date: z.string(),
  years: z.number().int().optional(),
  ecard_id: z.number().int().optional().describe('the eCard this member would get (an existing automation’s eCards)'),
  zone: z.string().describe('the zone this card follows: with timing_config.recipient_timezone the member’s own (members without one: the automation’s), else the automation’s'),
  send_at: z.string().describe('when this card goes, UTC, as the firing places it: send_time on the date in that zone (recipient_timezone) or the automation’s, after the member’s quiet hours'),
});

export const Firing = named('AutomationFiring', z.object({
  local_date: z.string().describe('the send date in the automation’s zone'),
  send_at: z.string().describe('send_time on that date in the automation’s zone, UTC (each occasion’s own send_at says when its card goes)'),
  occasions: z.array(PreviewOccasion),
}));

export const NotificationEcardsMap = z.object({ manager: z.array(z.number().int()), department: z.array(z.number().int()), segment: z.array(z.number().int()) });

export const Automation = named('Automation', z.object({
  id: z.number().int(),
  automation_name: z.string(),
  event_type: z.enum(EVENT_TYPES),
  enabled: z.boolean(),
  from_name: z.string().nullable(),
  from_email: z.string().nullable(),
  locale: z.string(),
  trigger_config: TriggerConfig,
  timing_config: TimingConfig.nullable(),
  random_messages: z.array(z.string()),
  selected_ecard_ids: z.array(z.number().int()),
  selected_member_ids: z.array(z.number().int()),
  selected_department_ids: z.array(z.number().int()),
  milestone_rules: z.array(MilestoneRule),
  notify_days_before: z.number().int(),
  notification_segment: z.object({ member_ids: z.array(z.number().int()), department_ids: z.array(z.number().int()) }),
  gift_card_enabled: z.boolean(),
  gift_card: GiftCard.nullable(),
  notification_ecards: NotificationEcardsMap,
  next_firings: z.array(Firing).describe('the firings of the next 30 days; [] while disabled'),
  createdat: z.string(),
  updatedat: z.string(),
}));

export const AutomationList = z.array(Automation);
export { PageMeta };

export const PreviewTriggerBody = z.preprocess(liftMilestoneRules, withAliases(
  z.object({
    trigger_type: z.enum(EVENT_TYPES).describe('alias: event_type'),
    trigger_config: TriggerConfigInput.default({}),
    timing_config: TimingConfigInput.extend({ send_time: TimingConfigInput.shape.send_time.unwrap(), timezone: TimingConfigInput.shape.timezone.unwrap() }),
    milestone_rules: listOf(MilestoneRuleInput, 100).optional().describe('alias: trigger_config.milestone_rules'),
    automation_id: resource('automation', positiveId).optional().describe('previews over this automation’s scope and with its eCards; else all active members'),
    days: z.number().int().min(1).max(90).default(30),
    from: localDate.optional().describe('the first send date (local); default: the next date whose send_time has not passed'),
  }),
  { trigger_type: ['event_type'], automation_id: ['automationId', 'automationID'] },
));

export const Preview = z.object({ timezone: z.string(), firings: z.array(Firing) });

const automationAliases = { automation_id: ['automationId', 'automationID'] } as const;

export const SaveNotificationEcardsBody = withAliases(
  z.object({
    automation_id: resource('automation', positiveId),
    notification_type: z.enum(NOTIFICATION_TYPES),
    ecardIds: resource('ecard', listOf(positiveId, 50, 1)),
  }),
  { ...automationAliases, ecardIds: ['ecardids', 'ecardIDs', 'ecard_ids'] },
);

export const GetNotificationEcardsQuery = withAliases(
  z.object({ id: resource('automation', numericId()).describe('alias: automation_id'), notification_type: z.enum(NOTIFICATION_TYPES) }),
  { id: ['automation_id', 'automationId'] },
);

export const DeleteNotificationEcardsBody = withAliases(
  z.object({ automation_id: resource('automation', positiveId), notification_type: z.enum(NOTIFICATION_TYPES).optional().describe('absent: every type') }),
  automationAliases,
);

export const NotificationEcards = z.object({
  automation_id: z.number().int(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  ecard_ids: z.array(z.number().int()),
});

export const DeletedNotificationTypes = z.object({ deleted: z.array(z.enum(NOTIFICATION_TYPES)) });
