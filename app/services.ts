// The composition root: builds every area once for a process (the API and its console, the worker, `cardsvc`)
// and registers what each area brings (services/<area>/hooks.ts: usage checks, reactions to other areas'
// changes, background passes), where workflows start, and the gift providers.
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { backgroundScheduler, type BackgroundScheduler } from '../lib/background.ts';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { loadDataKeys, type DataKeys } from '../lib/data-key.ts';
import { localDiskStore, type MediaStore } from '../lib/media-store.ts';
import type { Models } from '../models/index.ts';
import type { SendStarter, ServiceContext } from '../services/context.ts';
import { backgroundPassesOf, composeHooks, type AreaHooks, type Hooks } from '../services/hooks.ts';
import { automationsHooks } from '../services/automations/hooks.ts';
import { offsetClock, systemClock } from '../services/clock.ts';
import { campaignsHooks } from '../services/campaigns/hooks.ts';
import { housekeepingHooks } from '../services/housekeeping/hooks.ts';
import { mailHooks } from '../services/mail/hooks.ts';
import { createMailTransport, type MailTransport } from '../services/mail/transport.ts';
import { rewardsHooks } from '../services/rewards/hooks.ts';
import { simulatedProvider } from '../services/rewards/simulated-provider.ts';
import { sendsHooks } from '../services/sends/hooks.ts';
import { sendStarter } from '../services/sends/accept/starter.ts';
import { webhooksHooks } from '../services/webhooks/hooks.ts';
import { widgetHooks } from '../services/widgets/hooks.ts';

// Every area that reacts to others or runs in the background, listed once. The order is the order their hooks
// run in: usage checks (sends, campaigns, automations), a member's erasure in its transaction (campaigns, then
// rewards, then automations, before the member row goes) and the background passes of one sweep.
const AREAS: ReadonlyArray<(ctx: ServiceContext) => AreaHooks> = [webhooksHooks, sendsHooks, campaignsHooks, mailHooks, rewardsHooks, automationsHooks, widgetHooks, housekeepingHooks];

export interface Services extends ServiceContext {
  /** host:port of the Temporal server, when there is one (the worker and the API's readiness probe dial it). */
  temporalAddress: string | undefined;
  /** The background passes; the worker starts them, and nudges made in this process wake them. */
  background: BackgroundScheduler;
  /** Drains the send starter, stops the background passes and closes the Temporal client and the mail transport. */
  close(): Promise<void>;
}

export interface ServicesInput {
  config: Config;
  logger: Logger;
  models: Models;
  /** The Temporal server workflows start on; absent where there is none (`cardsvc`). */
  temporalAddress?: string | undefined;
  /** Replaces the configured mail transport (tests that cut a delivery short). */
  mail?: MailTransport;
  /** The clock (tests move it). */
  now?: () => Date;
  mediaStore?: MediaStore;
  /** The rewards keys the entry point checked (else read from the configuration, if there is one). */
  dataKeys?: DataKeys | undefined;
}

export function createServices(input: ServicesInput): Services {
  const { config, logger, models } = input;
  const mail = input.mail ?? createMailTransport({ models }, config.mail);
  // Dials on first use, so a process starts (and commits its work) while Temporal is down; sweeps start it later.
  const connection = input.temporalAddress === undefined ? undefined : Connection.lazy({ address: input.temporalAddress });
  const clock = config.testClock ? offsetClock(models.sequelize, input.now) : systemClock(input.now);
  const dataKeys = 'dataKeys' in input ? input.dataKeys : loadDataKeys(config);
  // Built on first use, once: the areas' hooks read the finished context when they run.
  let areas: AreaHooks[] | undefined;
  const areaHooks = () => (areas ??= AREAS.map((area) => area(services)));
  let hooks: Hooks | undefined;
  let background: BackgroundScheduler | undefined;
  let starter: SendStarter | undefined;
  let closing: Promise<void> | undefined;
  const services: Services = {
    config,
    logger,
    models,
    now: clock.now,
    clock,
    mediaStore: input.mediaStore ?? localDiskStore(join(config.dataDir, 'media')),
    mail,
    workflows: connection && { client: new Client({ connection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue },
    get hooks(): Hooks {
      hooks ??= composeHooks(areaHooks());
      return hooks;
    },
    dataKeys,
    giftProviders: { simulated: simulatedProvider({ models, config, dataKeys }) },
    nudge: () => background?.nudge(),
    get sendStarter(): SendStarter {
      starter ??= sendStarter(services);
      return starter;
    },
    temporalAddress: input.temporalAddress,
    get background(): BackgroundScheduler {
      background ??= backgroundScheduler(backgroundPassesOf(areaHooks()), { intervalMs: config.webhooks.outboxSweepMs, logger });
      return background;
    },
    // Once, whoever asks (a signal handler and a test's hook may both): a second call waits for the first.
    close() {
      closing ??= (async () => {
        // The starter first: its last batch needs the Temporal connection and the database.
        await starter?.close();
        await background?.stop();
        await connection?.close();
        if (!input.mail) mail.close();
      })();
      return closing;
    },
  };
  return services;
}
