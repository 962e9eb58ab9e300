// What the API's middleware and handlers share: the services of the process (built once by app/services.ts) with
// the API's own pieces (key authentication, the rate limiter; built by the root, app/runtime.ts), and the caller of
// a request.
import type { Account } from '../models/Account.ts';
import type { ApiKey } from '../models/ApiKey.ts';
import type { AuthenticatedKey, KeyAuthenticator } from '../services/api-keys.ts';
import type { ServiceContext } from '../services/context.ts';
import type { RateDecision, RateLimiter } from '../services/rate-limits.ts';

export interface ApiServices extends ServiceContext {
  keys: KeyAuthenticator;
  rateLimiter: RateLimiter;
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
