// What the API's middleware and handlers share: the services of one app instance and the caller of a request.
import type { Config } from '../lib/config.ts';
import type { Logger } from '../lib/logger.ts';
import type { Account } from '../models/Account.ts';
import type { ApiKey } from '../models/ApiKey.ts';
import type { Models } from '../models/index.ts';
import type { AuthenticatedKey, KeyAuthenticator } from '../services/api-keys.ts';
import type { MediaDeps } from '../services/media.ts';
import type { RateDecision, RateLimiter } from '../services/rate-limits.ts';
import type { UsageCheck } from '../services/usage.ts';
import type { WorkflowTarget } from '../workflows/webhook-delivery/lifecycle.ts';

export interface ApiServices {
  config: Config;
  logger: Logger;
  models: Models;
  /** The clock of this app instance (tests move it). */
  now: () => Date;
  keys: KeyAuthenticator;
  rateLimiter: RateLimiter;
  media: MediaDeps;
  /** What makes widgets and eCards "in use" (sends, campaigns, automations register theirs). */
  usageChecks: readonly UsageCheck[];
  /** Starts workflows from the API (webhook replays and test sends); undefined without Temporal. */
  workflows: WorkflowTarget | undefined;
}

export interface Caller {
  account: Account;
  apiKey: ApiKey;
  rate: RateDecision;
}

/** Koa's ctx.state for API requests. */
export interface ApiState {
  requestId: string;
  /** Set by authentication. */
  authenticated?: AuthenticatedKey;
  /** Set by the rate limiter, once the request is allowed. */
  caller?: Caller;
}
