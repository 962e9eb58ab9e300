// Builds every activity with its dependencies injected, so tests can pass their own.
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { Models } from '../models/index.ts';
import type { MailTransport } from '../services/mail/transport.ts';
import { createPingActivities } from './ping.ts';
import { createSendActivities } from './sends.ts';
import { createWebhookActivities } from './webhooks.ts';

export interface ActivityDeps {
  models: Models;
  logger: Logger;
  workerIdentity: string;
  webhooks: Config['webhooks'];
  mailTransport: MailTransport;
  mailFrom: string;
  publicBaseUrl: string;
  now?: () => Date;
}

export function createActivities(deps: ActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    ...createPingActivities(deps),
    ...createWebhookActivities({ models: deps.models, webhooks: deps.webhooks, now }),
    ...createSendActivities({
      models: deps.models,
      transport: deps.mailTransport,
      config: { mailFrom: deps.mailFrom, publicBaseUrl: deps.publicBaseUrl },
      now,
    }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
