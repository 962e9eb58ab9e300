// Builds every activity with its dependencies injected, so tests can pass their own.
import type { Logger } from '../lib/logger.ts';
import type { Models } from '../models/index.ts';
import { createPingActivities } from './ping.ts';

export interface ActivityDeps {
  models: Models;
  logger: Logger;
  workerIdentity: string;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createPingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
