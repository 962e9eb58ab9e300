// Builds every activity with its dependencies injected, so tests can pass their own.
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { Models } from '../models/index.ts';
import { createPingActivities } from './ping.ts';
import { createWebhookActivities } from './webhooks.ts';

export interface ActivityDeps {
  models: Models;
  logger: Logger;
  workerIdentity: string;
  webhooks: Config['webhooks'];
  now?: () => Date;
}

export function createActivities(deps: ActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    ...createPingActivities(deps),
    ...createWebhookActivities({ models: deps.models, webhooks: deps.webhooks, now }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
