// Automation ids shared by the lifecycle (client side) and the workflows: the Schedule's id is a business id;
// the workflows a Schedule starts get Temporal's own ids (`<scheduleId>-<time>`), so firings never dedupe.
export const automationScheduleId = (accountId: number, automationId: number) => `automation/${accountId}/${automationId}`;

/** The workflow type each Schedule starts. */
export const AUTOMATION_FIRING_WORKFLOW = 'automationFiringWorkflow';

/**
 * The batches of one automation's firing date D: a business id, so two firings of the same day (a trigger-now
 * beside the Schedule's own, a catch-up) never send the same rows at once; the second one finds it running.
 */
export const automationFanOutWorkflowId = (accountId: number, automationId: number, firingDate: string) =>
  `automation-firing/${accountId}/${automationId}/${firingDate}`;
