// Builds every activity from the process's services (app/services.ts), so tests can pass their own.
import type { ServiceContext } from '../services/context.ts';
import { createClockActivities } from './clock.ts';
import { createAutomationActivities } from './automations.ts';
import { createCampaignActivities } from './campaigns.ts';
import { createPingActivities } from './ping.ts';
import { createRewardsActivities } from './rewards.ts';
import { createSendActivities } from './sends.ts';
import { createWebhookActivities } from './webhooks.ts';

export function createActivities(services: ServiceContext, workerIdentity: string) {
  return {
    ...createPingActivities({ workerIdentity }),
    ...createClockActivities(services),
    ...createWebhookActivities(services),
    ...createSendActivities(services),
    ...createCampaignActivities(services),
    ...createAutomationActivities(services),
    ...createRewardsActivities(services),
  };
}

export type Activities = ReturnType<typeof createActivities>;
