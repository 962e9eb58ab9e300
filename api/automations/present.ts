// Automations as the API shows them (findOne, list items, save and toggle answers): the stored configuration read
// through services/automations/config.ts, with the next firings of the enabled ones (services/automations/view.ts).
import type { z } from 'zod';
import type { AutomationView } from '../../services/automations/view.ts';
import type { Automation as AutomationSchema, MilestoneRule } from './schema.ts';

type AutomationAnswer = z.input<typeof AutomationSchema>;

export function presentAutomation({ config: c, nextFirings }: AutomationView): AutomationAnswer {
  return {
    id: c.row.id,
    automation_name: c.row.automation_name,
    event_type: c.row.event_type,
    enabled: c.row.enabled,
    from_name: c.row.from_name,
    from_email: c.row.from_email,
    locale: c.row.locale,
    trigger_config: c.trigger_config,
    timing_config: c.timing_config,
    random_messages: c.random_messages,
    selected_ecard_ids: c.selected_ecard_ids,
    selected_member_ids: c.selected_member_ids,
    selected_department_ids: c.selected_department_ids,
    milestone_rules: c.milestone_rules as Array<z.input<typeof MilestoneRule>>,
    notify_days_before: c.row.notify_days_before,
    notification_segment: c.notification_segment,
    gift_card_enabled: c.row.gift_card_enabled,
    gift_card: c.gift_card as { product_id: string; amount: number } | null,
    notification_ecards: c.notification_ecards,
    next_firings: nextFirings,
    createdat: c.row.created_at.toISOString(),
    updatedat: c.row.updated_at.toISOString(),
  };
}
