// The composition root: builds every area once for a process (the API, the worker, `cardsvc`, later the console)
// and registers what each area brings: its usage check, its background pass, where its workflows start.
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { backgroundScheduler, periodicPass, type BackgroundPass, type BackgroundScheduler } from '../lib/background.ts';
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import { loadRewardsKeys, type RewardsKeys } from '../lib/rewards-keys.ts';
import { localDiskStore, type MediaStore } from '../lib/media-store.ts';
import type { Models } from '../models/index.ts';
import type { ServiceContext } from '../services/context.ts';
import { reconcileAutomationSchedules } from '../services/automations/reconcile.ts';
import { automationsUsageCheck } from '../services/automations/usage.ts';
import { drainMailQueue } from '../services/mail/queue.ts';
import { createMailTransport, type MailTransport } from '../services/mail/transport.ts';
import { startUnstartedSends } from '../services/sends/start.ts';
import { wakeUnstartedCampaigns } from '../services/campaigns/run.ts';
import { campaignsUsageCheck } from '../services/campaigns/usage.ts';
import { sendsUsageCheck } from '../services/sends/usage.ts';
import type { UsageCheck } from '../services/usage.ts';
import { drainOutbox } from '../services/webhooks/drain.ts';
import { pruneExpired } from '../services/housekeeping/prune.ts';
import { ensureGiftExpirySchedule } from '../workflows/gift-expiry/lifecycle.ts';

// What makes a widget or an eCard "in use": one check per area that can use them (sends, campaigns, automations).
const USAGE_CHECKS: readonly UsageCheck[] = [sendsUsageCheck, campaignsUsageCheck, automationsUsageCheck];

// Each area's background pass: a batch of conditional claims, so any number of workers can run them at once.
function backgroundPasses(services: ServiceContext): BackgroundPass[] {
  return [
    // Webhooks: committed events become deliveries, and their workflows start.
    { name: 'webhook outbox', run: () => drainOutbox(services) },
    // Sends: workflows of committed sends whose start never happened.
    { name: 'send starts', run: () => startUnstartedSends(services) },
    // Campaigns: scheduled or sending campaigns whose workflow wake never arrived.
    { name: 'campaign wakes', run: () => wakeUnstartedCampaigns(services) },
    // The service's own emails (owner notices).
    { name: 'mail queue', run: () => drainMailQueue(services) },
    // Automations: their Temporal Schedules made to match the database, at the worker's start and then now and again.
    periodicPass(
      {
        name: 'automation schedules',
        run: async () => {
          await reconcileAutomationSchedules(services);
          return false;
        },
      },
      services.config.automations.reconcileSeconds * 1000,
    ),
    // Rewards: the service's one daily gift-expiry Schedule, made at the worker's start (and checked again now and then).
    periodicPass(
      {
        name: 'gift expiry schedule',
        run: async () => {
          if (services.workflows) await ensureGiftExpirySchedule(services.workflows);
          return false;
        },
      },
      services.config.automations.reconcileSeconds * 1000,
    ),
    // Expired console sessions, old sign-in slots and idempotency keys: daily (PRUNE_INTERVAL_SECONDS), and at the start.
    periodicPass(
      {
        name: 'prune',
        run: async () => {
          const pruned = await pruneExpired(services);
          if (pruned.sessions + pruned.signInSlots + pruned.idempotencyKeys > 0) services.logger.info({ pruned }, 'expired rows pruned');
          return false;
        },
      },
      services.config.pruneIntervalSeconds * 1000,
    ),
  ];
}

export interface Services extends ServiceContext {
  /** host:port of the Temporal server, when there is one (the worker and the API's readiness probe dial it). */
  temporalAddress: string | undefined;
  /** The background passes; the worker starts them, and nudges made in this process wake them. */
  background: BackgroundScheduler;
  /** Stops the background passes and closes the Temporal client and the mail transport. */
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
  rewardsKeys?: RewardsKeys | undefined;
}

export function createServices(input: ServicesInput): Services {
  const { config, logger, models } = input;
  const mail = input.mail ?? createMailTransport(models, config.mail);
  // Dials on first use, so a process starts (and commits its work) while Temporal is down; sweeps start it later.
  const connection = input.temporalAddress === undefined ? undefined : Connection.lazy({ address: input.temporalAddress });
  let background: BackgroundScheduler | undefined;
  const services: Services = {
    config,
    logger,
    models,
    now: input.now ?? (() => new Date()),
    mediaStore: input.mediaStore ?? localDiskStore(join(config.dataDir, 'media')),
    mail,
    workflows: connection && { client: new Client({ connection, namespace: config.temporal.namespace }), taskQueue: config.temporal.taskQueue },
    usageChecks: USAGE_CHECKS,
    rewardsKeys: 'rewardsKeys' in input ? input.rewardsKeys : loadRewardsKeys(config),
    nudge: () => background?.nudge(),
    temporalAddress: input.temporalAddress,
    get background(): BackgroundScheduler {
      background ??= backgroundScheduler(backgroundPasses(services), { intervalMs: config.webhooks.outboxSweepMs, logger });
      return background;
    },
    async close() {
      await background?.stop();
      await connection?.close();
      if (!input.mail) mail.close();
    },
  };
  return services;
}
