// Automation ids shared by the lifecycle (client side) and the workflows: the Schedule's id is a business id;
// the workflows a Schedule starts get Temporal's own ids (`<scheduleId>-<time>`), so firings never dedupe.
export const automationScheduleId = (accountId: number, automationId: number) => `automation/${accountId}/${automationId}`;

/** The workflow type each Schedule starts. */
export const AUTOMATION_FIRING_WORKFLOW = 'automationFiringWorkflow';
