// Automation Schedules: one Temporal Schedule per automation, kept in line with the database (the truth) after
// each commit and by the worker's reconciler. The only Temporal client calls for automations.
// CONTRACT (being built): syncAutomationSchedule never throws (Temporal down → logged; the reconciler repairs).
import type { ServiceContext } from '../../services/context.ts';

/** Creates, updates, pauses or deletes the automation's Schedule to match its row (absent row → deleted). */
export async function syncAutomationSchedule(ctx: ServiceContext, accountId: number, automationId: number): Promise<void> {
  void ctx;
  void accountId;
  void automationId;
}
