// What every use case is given: one object, built once per process by the composition root (app/services.ts),
// so the key API's handlers, the console, the worker's activities and `cardsvc` share each area's wiring.
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { DataKeys } from '../lib/data-key.ts';
import type { MediaStore } from '../lib/media-store.ts';
import type { Models } from '../models/index.ts';
import type { Send } from '../models/Send.ts';
import type { WorkflowTarget } from '../workflows/shared/start.ts';
import type { ServiceClock } from './clock.ts';
import type { Hooks } from './hooks.ts';
import type { MailTransport } from './mail/transport.ts';
import type { GiftProviders } from './rewards/provider.ts';

/** What a workflow start needs of a committed send (services/sends/accept/start.ts). */
export type StartableSend = Pick<Send, 'id' | 'account_id' | 'send_id' | 'status' | 'send_at'>;

/** A process's starter of committed sends' workflows, in batches after the answer (services/sends/accept/starter.ts). */
export interface SendStarter {
  /** A committed send whose workflow should start soon (the row is the truth: a hand-over lost loses nothing). */
  add(send: StartableSend): void;
  /** Stops taking sends and drains the queue at once (no hold-back); a batch that fails leaves the rest to the sweeper. */
  close(): Promise<void>;
}

export interface ServiceContext {
  config: Config;
  logger: Logger;
  models: Models;
  /** The clock (tests move it); real time in production. `clock.now` itself. */
  now: () => Date;
  /** The same clock, and its fresh reading for waits (services/clock.ts; TEST_CLOCK moves it from the database). */
  clock: ServiceClock;
  /** Where media files live (local disk under DATA_DIR/media by default). */
  mediaStore: MediaStore;
  /** Where emails go: SMTP, or the mail_sink table. */
  mail: MailTransport;
  /** Where use cases start workflows; undefined where no Temporal server is reachable (`cardsvc`). */
  workflows: WorkflowTarget | undefined;
  /** What the areas do when another changes something ("in use" checks, eCards removed, a member erased): services/hooks.ts. */
  hooks: Hooks;
  /** The gift providers by name (REWARDS_PROVIDER, an order's `source`), built by the composition root. */
  giftProviders: GiftProviders;
  /** The key(s) that encrypt gift codes; undefined when none is configured (gift work then refuses). */
  dataKeys: DataKeys | undefined;
  /** Tells this process's background passes that something was committed for them (an event, a send). */
  nudge(): void;
  /** This process's starter of committed sends' workflows (services/sends/accept/starter.ts): accepts that do not wait hand their sends to it. */
  sendStarter: SendStarter;
}
