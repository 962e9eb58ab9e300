// The service's configuration: the only reader of process.env, parsed once with zod.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { PLANS, type Plan } from './plans.ts';
import { packageRoot } from './paths.ts';

const PORT_MESSAGE = 'expected a port number from 0 to 65535';
const port = z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE).max(65535, PORT_MESSAGE);
const nonEmpty = z.string().trim().min(1);

const EnvSchema = z.object({
  PORT: port.default(3000),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  DATA_DIR: nonEmpty.default('./data'),
  DATABASE_URL: nonEmpty
    .refine((v) => v.startsWith('sqlite:') || /^mysql:\/\/[^/]+\/[^/?]+/.test(v), {
      message: 'expected sqlite:<path> or mysql://user:pass@host:port/db',
    })
    .optional(),
  // MySQL: a statement not answered within this long fails (503 to the API, a retry for an activity), so a stalled
  // database (bytes held, not refused) cannot hold a request forever; lock waits count too.
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(100).max(600_000).default(20_000),
  TEMPORAL_ADDRESS: nonEmpty.regex(/^[^\s:/]+:\d{1,5}$/, 'expected host:port').optional(),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_NAMESPACE: nonEmpty.default('default'),
  // How long Temporal keeps a closed workflow's history (the namespace's retention, set when the worker registers it).
  TEMPORAL_RETENTION_DAYS: z.coerce.number({ error: 'expected a whole number of days' }).int('expected a whole number of days').min(1).max(3650).default(7),
  TEMPORAL_TASK_QUEUE: nonEmpty.default('cardsvc'),
  TEMPORAL_CLI_PATH: nonEmpty.optional(),
  // A file of the workflows already bundled from this same code (bundling costs seconds of CPU at each worker's
  // start): the test suite hands its worker child processes the bundle its own process made.
  WORKFLOW_BUNDLE_PATH: nonEmpty.optional(),
  // Bulk work (campaign and automation batches) runs on its own task queue, so it never starves single sends.
  TEMPORAL_BULK_TASK_QUEUE: nonEmpty.optional(),
  // Batches one worker runs at once (and one campaign runs in parallel).
  BULK_CONCURRENCY: z.coerce.number({ error: 'expected a number' }).int().min(1).max(64).default(4),
  // Recipients per batch activity: one prepare transaction, then micro-batches of the pool's size.
  BULK_BATCH_SIZE: z.coerce.number({ error: 'expected a number' }).int().min(1).max(5000).default(500),
  // An email activity (a send's dispatch, a campaign batch) not heard from for this long (its worker died) is tried
  // again; the emails it had claimed become unknown.
  ACTIVITY_HEARTBEAT_SECONDS: z.coerce.number({ error: 'expected a number' }).int().min(1).max(600).default(30),
  // SMTP connections kept open (nodemailer's pool); also the size of a bulk micro-batch.
  SMTP_POOL_SIZE: z.coerce.number({ error: 'expected a number' }).int().min(1).max(100).default(5),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'expected one of fatal, error, warn, info, debug, trace, silent' }).default('info'),
  MAIL_FROM: nonEmpty.default('Card Service <no-reply@cardsvc.localhost>'),
  // Bounces: each email's envelope sender becomes bounces+<token>@BOUNCE_DOMAIN (its MX must reach the listener,
  // `npm run bounces`, on BOUNCE_SMTP_PORT). Unset: envelopes are MAIL_FROM's address and no listener runs.
  BOUNCE_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, 'expected a domain name, e.g. bounces.example.com')
    .optional(),
  BOUNCE_SMTP_PORT: port.default(2525),
  // Per plan: per-minute/per-hour request limits of one API key.
  RATE_LIMITS: z
    .string()
    .regex(/^\s*\w+=\d+\/\d+\s*(,\s*\w+=\d+\/\d+\s*)*$/, 'expected plan=perMinute/perHour,... e.g. free=120/10000')
    .default('free=120/10000,pro=600/50000,enterprise=3000/250000'),
  // How many API processes share the database: near a limit, each process's rate-limit leases shrink to 1 once
  // fewer than processes × block counts are left (services/rate-lease.ts; unset: its default).
  RATE_LIMIT_PROCESSES: z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(1).max(10_000).optional(),
  // Per plan: active directory members allowed (seats).
  PLAN_SEATS: z
    .string()
    .regex(/^\s*\w+=\d+\s*(,\s*\w+=\d+\s*)*$/, 'expected plan=seats,... e.g. free=25')
    .default('free=25,pro=250,enterprise=5000'),
  // Seconds between webhook attempts: one retry per value (fractions allowed, so tests can shrink them).
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+(\.\d+)?\s*(,\s*\d+(\.\d+)?\s*)*$/, 'expected seconds separated by commas, e.g. 60,120,240,480,960')
    .default('60,120,240,480,960'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number({ error: 'expected milliseconds' }).int().positive().default(15_000),
  // Lets webhooks reach loopback and private addresses (local development and tests only).
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' }).default('false'),
  // How often the worker looks for undelivered events besides being nudged after each commit.
  OUTBOX_SWEEP_MS: z.coerce.number({ error: 'expected milliseconds' }).int().positive().default(2000),
  // How long a process reuses an account's outcome subscriptions (docs/decisions.md, "Outcome subscriptions, cached").
  OUTCOME_SUBSCRIPTIONS_CACHE_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(0).max(60_000).default(5000),
  // How often the worker's reconciler makes the automations' Temporal Schedules match the database (and at its start).
  // Tests only: the service clock runs ahead by an offset kept in the database (service_clock), which tests move
  // forward before signalling `wake`, so waits of hours pass in seconds of real Temporal timers.
  TEST_CLOCK: z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' }).default('false'),
  AUTOMATION_RECONCILE_SECONDS: z.coerce.number({ error: 'expected seconds' }).int().min(1).max(86_400).default(300),
  // Per plan: emails per billing month (UTC calendar month).
  PLAN_EMAILS: z
    .string()
    .regex(/^\s*\w+=\d+\s*(,\s*\w+=\d+\s*)*$/, 'expected plan=emails,... e.g. free=100')
    .default('free=100,pro=5000,enterprise=100000'),
  SMTP_URL: nonEmpty.regex(/^smtps?:\/\/[^/\s]+\/?$/, 'expected smtp://[user:pass@]host:port or smtps://...').optional(),
  // `sink`: live emails go to the mail_sink table (sandbox emails always do).
  MAIL_TRANSPORT: z.enum(['smtp', 'sink'], { error: 'expected smtp or sink' }).optional(),
  // How long an email-now send-ecard call waits for the dispatch before answering "pending".
  SEND_WAIT_SECONDS: z.coerce.number({ error: 'expected seconds' }).min(0).max(60).default(10),
  // A sendAt closer than this is "now" (tests shrink it to schedule sends a few seconds ahead).
  SEND_NOW_WINDOW_SECONDS: z.coerce.number({ error: 'expected seconds' }).min(0).max(3600).default(60),
  // Tests and drills only: how long the API's send starter holds each send back (a drill kills the API meanwhile).
  SEND_STARTER_DELAY_MS: z.coerce.number({ error: 'expected milliseconds' }).int().min(0).max(3_600_000).default(0),
  BODY_LIMIT_BYTES: z.coerce.number({ error: 'expected a number of bytes' }).int().positive().default(1024 * 1024),
  // How long an idle kept-alive connection stays open: above load balancers' usual 60 s, so they close first.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number({ error: 'expected milliseconds' }).int().positive().default(65_000),
  // Checks every API response against its declared schema made strict (tests, staging): a leaked field is a 500.
  STRICT_RESPONSES: z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' }).default('false'),
  // Rewards: the key that encrypts gift codes (32 bytes, base64 or hex; else DATA_DIR/secrets/rewards.key), the
  // one before it while rotating, the provider for live accounts in provider mode, and how long a provider call may take.
  REWARDS_ENCRYPTION_KEY: nonEmpty.optional(),
  REWARDS_ENCRYPTION_KEY_PREVIOUS: nonEmpty.optional(),
  // Or the path of a file holding the key (a Docker or Kubernetes secret, e.g. /run/secrets/rewards_key).
  REWARDS_ENCRYPTION_KEY_FILE: nonEmpty.optional(),
  REWARDS_ENCRYPTION_KEY_PREVIOUS_FILE: nonEmpty.optional(),
  REWARDS_PROVIDER: z.enum(['simulated'], { error: 'expected simulated (the only provider built in)' }).optional(),
  REWARDS_PROVIDER_TIMEOUT_SECONDS: z.coerce.number({ error: 'expected whole seconds' }).int('expected whole seconds').min(1).max(300).default(15),
  // Data at rest (gift codes, webhook signing secrets): the key's name since wave 3; REWARDS_ENCRYPTION_KEY* (above)
  // name the same key and are still read (both names set to different values refuse to start).
  DATA_ENCRYPTION_KEY: nonEmpty.optional(),
  DATA_ENCRYPTION_KEY_PREVIOUS: nonEmpty.optional(),
  DATA_ENCRYPTION_KEY_FILE: nonEmpty.optional(),
  DATA_ENCRYPTION_KEY_PREVIOUS_FILE: nonEmpty.optional(),
  // How often a worker prunes expired console sessions, old sign-in slots and idempotency rows (daily; at its start too).
  PRUNE_INTERVAL_SECONDS: z.coerce.number({ error: 'expected seconds' }).int().min(1).max(7 * 86_400).default(86_400),
  // How long the audit log keeps a row (the daily prune deletes older ones).
  AUDIT_RETENTION_DAYS: z.coerce.number({ error: 'expected a whole number of days' }).int('expected a whole number of days').min(1).max(3650).default(365),
  // Behind a proxy that terminates TLS: trust X-Forwarded-Proto (the console's cookie is then __Host- and Secure).
  TRUST_PROXY: z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' }).default('false'),
  // The widget's allowedOrigins may name http:// origins (development and tests only).
  WIDGET_ALLOW_HTTP_ORIGINS: z.enum(['true', 'false', '1', '0'], { error: 'expected true or false' }).default('false'),
  // The cost of owner password hashes: scrypt N = 2^this (older hashes are re-hashed at the next sign-in).
  PASSWORD_SCRYPT_LOG2N: z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(14).max(20).default(16),
  // Caps per tenant: growth past one is a 422 limit_exceeded (data already over a cap stays). MEDIA_QUOTA_MB is per
  // plan, in MiB (fractions allowed, so tests can shrink it); a sandbox has its own quota of its plan's size.
  LIMIT_ECARDS_PER_WIDGET: z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(1).default(500),
  LIMIT_WEBHOOKS_PER_ACCOUNT: z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(1).default(25),
  MEDIA_QUOTA_MB: z
    .string()
    .regex(/^\s*\w+=\d+(\.\d+)?\s*(,\s*\w+=\d+(\.\d+)?\s*)*$/, 'expected plan=megabytes,... e.g. free=200')
    .default('free=200,pro=2000,enterprise=20000'),
  // Public pages (/e/, /g/, /u/, /media/): requests per minute per (client IP, page kind), GETs and POSTs apart.
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(1).default(300),
  PUBLIC_RATE_LIMIT_POSTS_PER_MINUTE: z.coerce.number({ error: 'expected a whole number' }).int('expected a whole number').min(1).default(30),
  // Used only to find the cached Temporal CLI and a `temporal` on PATH.
  HOME: z.string().optional(),
  PATH: z.string().optional(),
});

export type DatabaseConfig =
  | { dialect: 'sqlite'; storage: string; url: string }
  | { dialect: 'mysql'; url: string; statementTimeoutMs?: number };

export interface Config {
  port: number;
  publicBaseUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  temporal: {
    /** host:port of an external server; undefined means `npm start` runs the embedded dev server. */
    address: string | undefined;
    port: number;
    uiPort: number;
    namespace: string;
    /** The namespace's retention when the worker registers it (TEMPORAL_RETENTION_DAYS). */
    retentionDays: number;
    taskQueue: string;
    bulkTaskQueue: string;
    cliPath: string | undefined;
    /** A prebuilt workflow bundle of this code; undefined: the worker bundles the workflows at its start. */
    workflowBundlePath: string | undefined;
    cliCacheDir: string;
    searchPath: string;
    /** The environment handed to child processes (the dev server, `go install`). */
    childEnv: Readonly<Record<string, string | undefined>>;
  };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  mailFrom: string;
  /** The bounce listener's domain (VERP envelope senders) and port; domain undefined: no VERP, no listener. */
  bounces: { domain: string | undefined; port: number };
  rateLimits: Record<Plan, RateLimit>;
  /** API processes sharing the rate limits (RATE_LIMIT_PROCESSES); undefined: the limiter's default. */
  rateLimitProcesses: number | undefined;
  seats: Record<Plan, number>;
  emailsPerMonth: Record<Plan, number>;
  mail: {
    /** `smtp` (SMTP_URL), `sink` (the mail_sink table), or `none`: live emails cannot be sent. */
    transport: 'smtp' | 'sink' | 'none';
    smtpUrl: string | undefined;
    /** SMTP connections in the pool. */
    poolSize: number;
    /** The sink was chosen because nothing was configured (`npm start` warns about it). */
    sinkByDefault: boolean;
  };
  sendWaitSeconds: number;
  sendNowWindowSeconds: number;
  /** Tests and drills only: how long the send starter holds each send back (services/sends/accept/starter.ts). */
  sendStarterDelayMs: number;
  bulk: {
    concurrency: number;
    batchSize: number;
  };
  /** How long an email activity may go unheard before Temporal tries it again. */
  heartbeatSeconds: number;
  webhooks: {
    retryDelaysSeconds: number[];
    timeoutMs: number;
    allowPrivateTargets: boolean;
    outboxSweepMs: number;
    /**
     * How long a process reuses an account's outcome subscriptions read before a transition (services/sends/
     * outcome-events.ts): a subscription change takes effect within it; 0 reads them every time.
     */
    outcomeSubscriptionsCacheMs: number;
  };
  /** Tests only: the clock's offset is read from the database (services/clock.ts). */
  testClock: boolean;
  automations: {
    /** Seconds between two runs of the Schedules' reconciler in a worker. */
    reconcileSeconds: number;
  };
  /** The data key that seals secrets at rest (lib/data-key.ts), as the variables give it. */
  dataKey: {
    /** The key as given (DATA_ENCRYPTION_KEY); undefined means keyFile, else the key file under DATA_DIR/secrets. */
    key: string | undefined;
    /** The file holding the key (DATA_ENCRYPTION_KEY_FILE, a Docker secret); never both this and key. */
    keyFile: string | undefined;
    previousKey: string | undefined;
    previousKeyFile: string | undefined;
    /** The variables' prefix the key came from (DATA_ENCRYPTION_KEY unless only the old REWARDS_ names are set), for messages. */
    variable: 'DATA_ENCRYPTION_KEY' | 'REWARDS_ENCRYPTION_KEY';
  };
  rewards: {
    /** The provider live accounts in provider mode use; undefined: none (the sandbox always uses the simulated one). */
    provider: 'simulated' | undefined;
    providerTimeoutSeconds: number;
  };
  /** Trust X-Forwarded-Proto from a proxy in front (TRUST_PROXY). */
  trustProxy: boolean;
  /** WIDGET_ALLOW_HTTP_ORIGINS: a widget's allowedOrigins may frame it from http:// origins (else https only). */
  widgetAllowHttpOrigins: boolean;
  /** scrypt's N for owner passwords is 2^this. */
  passwordScryptLog2N: number;
  bodyLimitBytes: number;
  /** Idle kept-alive connections close after this; headers must arrive within it plus a second. */
  keepAliveTimeoutMs: number;
  strictResponses: boolean;
  /** Seconds between a worker's prune passes (expired sessions, sign-in slots, idempotency rows). */
  pruneIntervalSeconds: number;
  /** AUDIT_RETENTION_DAYS: the audit log's rows older than this are pruned. */
  auditRetentionDays: number;
  /** Caps per tenant (LIMIT_*, MEDIA_QUOTA_MB). */
  limits: { ecardsPerWidget: number; webhooksPerAccount: number; mediaQuotaMb: Record<Plan, number> };
  /** Public pages' requests per minute per (client IP, page kind). */
  publicRateLimit: { pagesPerMinute: number; postsPerMinute: number };
}

export interface RateLimit {
  perMinute: number;
  perHour: number;
}

// `plan=value,...` with every plan named once; a string is the problem.
function parsePlanMap<T>(value: string, parse: (text: string) => T): Record<Plan, T> | string {
  const map: Partial<Record<Plan, T>> = {};
  for (const entry of value.split(',')) {
    const [plan = '', text = ''] = entry.trim().split('=');
    if (!(PLANS as readonly string[]).includes(plan)) return `unknown plan "${plan}" (plans: ${PLANS.join(', ')})`;
    map[plan as Plan] = parse(text);
  }
  const missing = PLANS.filter((plan) => map[plan] === undefined);
  return missing.length ? `no value for ${missing.join(', ')}` : (map as Record<Plan, T>);
}

function parseRateLimit(text: string): RateLimit {
  const [minute = '', hour = ''] = text.split('/');
  return { perMinute: Number(minute), perHour: Number(hour) };
}

const isTrue = (flag: string) => flag === 'true' || flag === '1';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function fromPackageRoot(path: string): string {
  return isAbsolute(path) ? path : resolve(packageRoot, path);
}

function databaseConfig(url: string | undefined, dataDir: string, statementTimeoutMs: number): DatabaseConfig {
  if (url === undefined) {
    const storage = join(dataDir, 'cardsvc.sqlite');
    return { dialect: 'sqlite', storage, url: `sqlite:${storage}` };
  }
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    const storage = path === ':memory:' ? path : fromPackageRoot(path);
    return { dialect: 'sqlite', storage, url: `sqlite:${storage}` };
  }
  return { dialect: 'mysql', url, statementTimeoutMs };
}

/** Parses an environment (process.env by default); throws ConfigError with one line naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, options: { mailSinkByDefault?: boolean } = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      const got = env[name] === undefined ? '' : ` (got ${JSON.stringify(env[name])})`;
      return `${name}: ${issue.message}${got}`;
    });
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const rateLimits = parsePlanMap(e.RATE_LIMITS, parseRateLimit);
  if (typeof rateLimits === 'string') throw new ConfigError(`Invalid configuration: RATE_LIMITS: ${rateLimits} (got ${JSON.stringify(e.RATE_LIMITS)})`);
  const emailsPerMonth = parsePlanMap(e.PLAN_EMAILS, Number);
  if (typeof emailsPerMonth === 'string') throw new ConfigError(`Invalid configuration: PLAN_EMAILS: ${emailsPerMonth} (got ${JSON.stringify(e.PLAN_EMAILS)})`);
  if (e.MAIL_TRANSPORT === 'smtp' && !e.SMTP_URL) throw new ConfigError('Invalid configuration: MAIL_TRANSPORT=smtp needs SMTP_URL');
  const seats = parsePlanMap(e.PLAN_SEATS, Number);
  if (typeof seats === 'string') throw new ConfigError(`Invalid configuration: PLAN_SEATS: ${seats} (got ${JSON.stringify(e.PLAN_SEATS)})`);
  // One key under two names: DATA_ENCRYPTION_KEY* first, the older REWARDS_ENCRYPTION_KEY* alike; never two different keys.
  const keyVariable = (['', '_PREVIOUS', '_FILE', '_PREVIOUS_FILE'] as const).some((suffix) => e[`DATA_ENCRYPTION_KEY${suffix}`] !== undefined) ? 'DATA_ENCRYPTION_KEY' : 'REWARDS_ENCRYPTION_KEY';
  const encryption: Partial<Record<'key' | 'previous' | 'file' | 'previousFile', string>> = {};
  for (const [field, suffix] of [['key', ''], ['previous', '_PREVIOUS'], ['file', '_FILE'], ['previousFile', '_PREVIOUS_FILE']] as const) {
    const [data, rewards] = [e[`DATA_ENCRYPTION_KEY${suffix}`], e[`REWARDS_ENCRYPTION_KEY${suffix}`]];
    if (data !== undefined && rewards !== undefined && data !== rewards) {
      throw new ConfigError(`Invalid configuration: DATA_ENCRYPTION_KEY${suffix} and REWARDS_ENCRYPTION_KEY${suffix} name the same key but differ: set one of them`);
    }
    encryption[field] = data ?? rewards;
  }
  for (const [key, file, name] of [[encryption.key, encryption.file, keyVariable], [encryption.previous, encryption.previousFile, `${keyVariable}_PREVIOUS`]] as const) {
    if (key !== undefined && file !== undefined) throw new ConfigError(`Invalid configuration: ${name}_FILE: set ${name} or ${name}_FILE, not both`);
  }
  const mediaQuotaMb = parsePlanMap(e.MEDIA_QUOTA_MB, Number);
  if (typeof mediaQuotaMb === 'string') throw new ConfigError(`Invalid configuration: MEDIA_QUOTA_MB: ${mediaQuotaMb} (got ${JSON.stringify(e.MEDIA_QUOTA_MB)})`);
  const dataDir = fromPackageRoot(e.DATA_DIR);
  return {
    port: e.PORT,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir,
    database: databaseConfig(e.DATABASE_URL, dataDir, e.DATABASE_STATEMENT_TIMEOUT_MS),
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      port: e.TEMPORAL_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
      namespace: e.TEMPORAL_NAMESPACE,
      retentionDays: e.TEMPORAL_RETENTION_DAYS,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      bulkTaskQueue: e.TEMPORAL_BULK_TASK_QUEUE ?? `${e.TEMPORAL_TASK_QUEUE}-bulk`,
      cliPath: e.TEMPORAL_CLI_PATH,
      workflowBundlePath: e.WORKFLOW_BUNDLE_PATH === undefined ? undefined : fromPackageRoot(e.WORKFLOW_BUNDLE_PATH),
      cliCacheDir: join(e.HOME ?? homedir(), '.cache', 'cardsvc'),
      searchPath: e.PATH ?? '',
      childEnv: { ...env },
    },
    logLevel: e.LOG_LEVEL,
    mailFrom: e.MAIL_FROM,
    bounces: { domain: e.BOUNCE_DOMAIN, port: e.BOUNCE_SMTP_PORT },
    rateLimits,
    rateLimitProcesses: e.RATE_LIMIT_PROCESSES,
    seats,
    emailsPerMonth,
    mail: {
      transport: e.MAIL_TRANSPORT ?? (e.SMTP_URL ? 'smtp' : options.mailSinkByDefault ? 'sink' : 'none'),
      smtpUrl: e.SMTP_URL,
      poolSize: e.SMTP_POOL_SIZE,
      sinkByDefault: !e.MAIL_TRANSPORT && !e.SMTP_URL && options.mailSinkByDefault === true,
    },
    sendWaitSeconds: e.SEND_WAIT_SECONDS,
    sendNowWindowSeconds: e.SEND_NOW_WINDOW_SECONDS,
    sendStarterDelayMs: e.SEND_STARTER_DELAY_MS,
    bulk: { concurrency: e.BULK_CONCURRENCY, batchSize: e.BULK_BATCH_SIZE },
    heartbeatSeconds: e.ACTIVITY_HEARTBEAT_SECONDS,
    webhooks: {
      retryDelaysSeconds: e.WEBHOOK_RETRY_DELAYS.split(',').map(Number),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowPrivateTargets: isTrue(e.WEBHOOK_ALLOW_PRIVATE_TARGETS),
      outboxSweepMs: e.OUTBOX_SWEEP_MS,
      outcomeSubscriptionsCacheMs: e.OUTCOME_SUBSCRIPTIONS_CACHE_MS,
    },
    testClock: isTrue(e.TEST_CLOCK),
    automations: { reconcileSeconds: e.AUTOMATION_RECONCILE_SECONDS },
    dataKey: {
      key: encryption.key,
      keyFile: encryption.file === undefined ? undefined : fromPackageRoot(encryption.file),
      previousKey: encryption.previous,
      previousKeyFile: encryption.previousFile === undefined ? undefined : fromPackageRoot(encryption.previousFile),
      variable: keyVariable,
    },
    rewards: {
      provider: e.REWARDS_PROVIDER,
      providerTimeoutSeconds: e.REWARDS_PROVIDER_TIMEOUT_SECONDS,
    },
    trustProxy: isTrue(e.TRUST_PROXY),
    widgetAllowHttpOrigins: isTrue(e.WIDGET_ALLOW_HTTP_ORIGINS),
    passwordScryptLog2N: e.PASSWORD_SCRYPT_LOG2N,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    strictResponses: isTrue(e.STRICT_RESPONSES),
    pruneIntervalSeconds: e.PRUNE_INTERVAL_SECONDS,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    limits: { ecardsPerWidget: e.LIMIT_ECARDS_PER_WIDGET, webhooksPerAccount: e.LIMIT_WEBHOOKS_PER_ACCOUNT, mediaQuotaMb },
    publicRateLimit: { pagesPerMinute: e.PUBLIC_RATE_LIMIT_PER_MINUTE, postsPerMinute: e.PUBLIC_RATE_LIMIT_POSTS_PER_MINUTE },
  };
}

/** A database URL safe to print: the password is replaced. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^(mysql:\/\/[^:/@]+):[^@]*@/, '$1:***@');
}
