// What the pairs of `npm run bench` share: an eCard to send, an SMTP server that counts, a bare nodemailer pool,
// closed-loop `workflow.start` clients and the wait for accepted sends' workflows, node processes serving HTTP (their
// load: bench/load.ts), and paired rounds alternated into ratios.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { packageRoot } from '../lib/paths.ts';
import type { Services } from '../app/services.ts';
import type { Account } from '../models/Account.ts';
import type { Ecard } from '../models/Ecard.ts';
import type { Send } from '../models/Send.ts';
import { acceptSend } from '../services/sends/accept/accept.ts';
import type { Models } from '../models/index.ts';
import { sendCampaign } from '../services/campaigns/moves.ts';
import { PING_WORKFLOW } from '../workflows/ping/contract.ts';
import { newVanityId } from '../services/widgets/admin/widgets.ts';
import { createTransport } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { SMTPServer } from 'smtp-server';
import { connectWithoutDelay } from '../services/mail/transport.ts';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** A widget and an eCard with merge tags in its subject and body. */
export async function benchEcard(models: Models, accountId: number, subject: string): Promise<Ecard> {
  const widget = await models.Widget.create({ account_id: accountId, vanity_id: newVanityId(), name: 'Bench', wconfig: {} });
  return models.Ecard.create({
    account_id: accountId, widget_id: widget.id, vanity_id: newVanityId(), name: 'Bench', email_subject: subject, header: 'Hello',
    details: '<p>Dear {{recipient_name}}, greetings from {{sender_name}}.</p>', ecard_link: null, url_redirect_after_send: null, ecardbrandid: null, ecard_mode: null,
    envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null, self_hosted_url: null, price: null,
  });
}

export interface CountingSmtp {
  port: number;
  /** Messages read whole so far. */
  received(): number;
  close(): Promise<void>;
}

/** The SMTP server both sides of a throughput bench talk to: reads each message whole, keeps a count. */
export async function countingSmtp(): Promise<CountingSmtp> {
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS of the client: loopback only, and a lookup per connection would dominate.
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return { port, received: () => received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** The baseline: `count` rendered messages through a bare nodemailer pool of `poolSize`; messages per second. */
export async function bareNodemailerRound(smtp: CountingSmtp, count: number, poolSize: number, tag: string): Promise<number> {
  const messages = Array.from({ length: count }, (_, i) => ({
    from: 'HR <no-reply@cardsvc.localhost>',
    to: `r${tag}-${i}@bench.example.com`,
    subject: `Hi R${i}`,
    text: `Dear R${i} Bench, greetings from HR.`,
    html: `<p>Dear R${i} Bench, greetings from HR.</p>`,
  }));
  // Connected as the service's transport connects (Nagle off), so the two differ by the service's work only.
  const transport = createTransport({ pool: true, maxConnections: poolSize, host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, getSocket: connectWithoutDelay } as SMTPPool.Options);
  const before = smtp.received();
  const started = performance.now();
  await Promise.all(messages.map((m) => transport.sendMail(m)));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  if (smtp.received() - before !== count) throw new Error(`bare pool: ${smtp.received() - before} messages for ${count}`);
  return count / seconds;
}

/**
 * Sends the campaign and waits until it is no longer sending; the seconds it took and the messages the SMTP
 * server took meanwhile (checked against the recipients).
 */
export async function sendCampaignToEnd(
  stack: { models: Models; services: Services },
  smtp: CountingSmtp,
  campaign: { accountId: number; id: number; recipients: number; token?: string | undefined },
): Promise<number> {
  const before = smtp.received();
  const started = performance.now();
  await sendCampaign(stack.services, campaign.accountId, campaign.id, campaign.token);
  while ((await stack.models.Campaign.findByPk(campaign.id))!.status === 'sending') await sleep(50);
  const seconds = (performance.now() - started) / 1000;
  const messages = smtp.received() - before;
  if (messages !== campaign.recipients) throw new Error(`campaign ${campaign.id}: ${messages} messages for ${campaign.recipients} recipients`);
  return seconds;
}

// Closed-loop rates of calls that are not HTTP (bench/accept.ts and bench/widget-send.ts: `workflow.start`); the HTTP
// pairs' load is bench/load.ts.

/** `concurrency` clients, each calling `call` again as soon as it answers, for `seconds`; calls per second. */
export async function closedLoopRate(seconds: number, concurrency: number, call: () => Promise<void>): Promise<number> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let done = 0;
  const client = async () => {
    while (performance.now() < deadline) {
      await call();
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  // Over the time until the last call answered, not the nominal seconds.
  return done / ((performance.now() - started) / 1000);
}

/**
 * The accept pairs' baseline (P2, P12): `concurrency` clients starting the one-activity ping workflow back to back
 * for `seconds` (a workflow exists once `start` returns); its rate. Then, outside the measured time, it waits for
 * every ping to finish so the next round starts on an idle worker.
 */
export async function workflowStartRate(client: Client, taskQueue: string, idPrefix: string, seconds: number, concurrency: number): Promise<number> {
  const pings: Array<Promise<unknown>> = [];
  let n = 0;
  const rate = await closedLoopRate(seconds, concurrency, async () => {
    const handle = await client.workflow.start(PING_WORKFLOW, { taskQueue, workflowId: `${idPrefix}-${++n}`, args: ['x'] });
    pings.push(handle.result());
  });
  await Promise.all(pings);
  return rate;
}

/**
 * Waits until a workflow exists under each id (describe answers; none found yet is retried for up to 2 minutes, then
 * the pair fails) and returns the latest of their start times (epoch ms, the Temporal server's clock on this
 * machine): where a round of accepts ends (bench/accept.ts, bench/widget-send.ts).
 */
export async function untilWorkflowsStarted(client: Client, workflowIds: readonly string[], concurrency: number): Promise<number> {
  let latest = 0;
  let waiting = [...workflowIds];
  const givenUp = Date.now() + 120_000;
  while (waiting.length > 0) {
    const still: string[] = [];
    for (let i = 0; i < waiting.length; i += concurrency) {
      const chunk = waiting.slice(i, i + concurrency);
      const starts = await Promise.all(chunk.map((id) => client.workflow.getHandle(id).describe().then((d) => d.startTime.getTime(), (err: unknown) => {
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      })));
      chunk.forEach((id, j) => {
        const start = starts[j];
        if (start === null || start === undefined) still.push(id);
        else latest = Math.max(latest, start);
      });
    }
    waiting = still;
    if (waiting.length === 0) break;
    if (Date.now() > givenUp) throw new Error(`${waiting.length} of ${workflowIds.length} accepted sends have no workflow after 2 minutes (first: ${waiting[0]})`);
    await sleep(20);
  }
  return latest;
}

/**
 * A start through the service's lifecycle function, tried again when it gave up: a start waits at most
 * START_DEADLINE_MS (5 s) for Temporal, and 1,000 at once on the file-backed dev server can wait longer. The
 * service leaves such a start to its sweeper; the bench took its sends from the sweeper, so it tries again itself
 * (a start that did reach the server is then "already started", a success).
 */
export async function startWithin(start: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= 5) throw err;
    }
  }
}

/**
 * One email send accepted in this process through the service's accept (as the API's would be), then marked started:
 * the worker's sweeper starts any unstarted send at once, and would email it before the round that starts it begins.
 */
export async function acceptMarkedStarted(services: Services, account: Account, ecardId: number, recipientEmail: string): Promise<Send> {
  const { send } = await acceptSend(services, account, {
    ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientNames: ['Rita R'], recipientEmails: [recipientEmail],
    sendAt: undefined, share: false, widgetId: undefined, personalMessage: '<p>Hi</p>', locale: 'en', mergeTags: undefined, overrideProps: undefined,
    idempotencyKey: undefined, requestHash: 'x',
  });
  await services.models.Send.update({ workflow_started: true }, { where: { id: send.id } });
  return send;
}

// Every history event up to a scheduled send's timer: started, workflow task scheduled, started, completed, timer.
const AT_TIMER = 5;

/** Waits until each scheduled send's workflow is at its timer (a round's work done, outside the measured time). */
export async function untilAtTimer(client: Client, workflowIds: readonly string[], concurrency: number): Promise<void> {
  let waiting = workflowIds.map((id) => client.workflow.getHandle(id));
  while (waiting.length > 0) {
    const still: typeof waiting = [];
    for (let i = 0; i < waiting.length; i += concurrency) {
      const chunk = waiting.slice(i, i + concurrency);
      const lengths = await Promise.all(chunk.map(async (handle) => (await handle.describe()).historyLength));
      chunk.forEach((handle, j) => {
        if (lengths[j]! < AT_TIMER) still.push(handle);
      });
    }
    waiting = still;
    if (waiting.length > 0) await sleep(100);
  }
}

// ---- HTTP benches: a node process serving HTTP (the load on it: bench/load.ts), paired rounds.

export interface NodeProcess {
  url: string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s); a --cpu-prof profile is written on that exit. */
  stop(): Promise<void>;
}

/**
 * `node --import tsx <nodeArgs> <script> <args>` from the package root on `port` (its output in `logFile`, as a
 * service writes to a log), resolved once GET `readyPath` answers 200; rejected if it exits first.
 */
export async function startNodeProcess(options: {
  script: string; args?: string[]; nodeArgs?: string[]; env: NodeJS.ProcessEnv; port: number; readyPath: string; logFile: string;
}): Promise<NodeProcess> {
  const log = openSync(options.logFile, 'a');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', options.script, ...(options.args ?? [])], {
    cwd: packageRoot, env: options.env, stdio: ['ignore', log, log],
  });
  closeSync(log);
  // Not outliving this process, whatever ends it.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  let gone: number | string | null | undefined;
  void exited.then((how) => {
    gone = how;
    process.off('exit', orphaned);
  });
  const url = `http://127.0.0.1:${options.port}`;
  const tail = () => readFileSync(options.logFile, 'utf8').slice(-2000);
  for (const started = Date.now(); ; await sleep(100)) {
    if (gone !== undefined) throw new Error(`${options.script} exited (${gone}) before answering:\n${tail()}`);
    if (Date.now() - started > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`${options.script} did not answer ${options.readyPath} within 60 s:\n${tail()}`);
    }
    const res = await fetch(`${url}${options.readyPath}`).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) break;
  }
  return {
    url,
    stop: async () => {
      if (gone === undefined) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * The API alone as production runs it (`bin/api.ts`, its own process, default log level, its log in `logFile`) on a
 * migrated database; `env` adds to (or overrides) the settings. Temporal is dialled lazily: without TEMPORAL_ADDRESS
 * it points at a closed port, which only reads that need no Temporal server can bear.
 */
export async function startApiProcess(env: Record<string, string>, options: { logFile: string; nodeArgs?: string[]; port?: number; script?: string }): Promise<NodeProcess> {
  const port = options.port ?? (await freePort());
  return startNodeProcess({
    script: options.script ?? 'bin/api.ts',
    nodeArgs: options.nodeArgs ?? [],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TEMPORAL_ADDRESS: '127.0.0.1:1', REWARDS_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...env, PORT: String(port) },
    port,
    readyPath: '/healthz',
    logFile: options.logFile,
  });
}

/** The median, min and max of a list of figures. */
export function spread(figures: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...figures].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)! };
}

/** "median 0.42 (min 0.40, max 0.45)" of per-round ratios. */
export function ratioSummary(ratios: readonly number[]): string {
  const { median, min, max } = spread(ratios);
  return `median ${median.toFixed(2)} (min ${min.toFixed(2)}, max ${max.toFixed(2)})`;
}

/** How long and how often: the harness's settings (bench/run.ts), full or `--quick`. */
export interface BenchSettings {
  quick: boolean;
  /** Seconds per measured round of a rate. */
  seconds: number;
  /** Pairs of rounds, alternated. */
  rounds: number;
  /** Seconds of warm-up of each side of a rate (a fixed-size pair warms up with a small round); 0 skips it. */
  warmupSeconds: number;
  /** Connections of the HTTP pairs' load generator (bench/load.ts). */
  concurrency: number;
}

/** One pair's outcome, as written to bench/results/<name>.json. */
export interface PairResult {
  name: string;
  /** What is measured against what. */
  compares: string;
  target: string;
  /** The unit of both sides' figures. */
  unit: string;
  measured: { name: string; figures: number[] };
  baseline: { name: string; figures: number[] };
  /** measured / baseline, one per pair of rounds. */
  ratios: number[];
  /** Sizes and anything else the pair reports beside its ratio. */
  notes: Record<string, unknown>;
}

/** A pair module: `run` measures one or more pairs on the harness's stack. */
export interface Pair<Context> {
  name: string;
  run(ctx: Context): Promise<PairResult[]>;
}

interface Side {
  name: string;
  /** One round (or, with `warmup`, the side's warm-up); its figure (a rate: higher is better). */
  round: (warmup: boolean) => Promise<number>;
}

/**
 * Each side's warm-up (unless `settings.warmupSeconds` is 0), then `settings.rounds` pairs of rounds alternated
 * (the measured side, then its baseline); prints each pair of rounds; the figures and their ratios.
 */
export async function alternatedRounds(
  label: string,
  measured: Side,
  baseline: Side,
  settings: Pick<BenchSettings, 'rounds' | 'warmupSeconds'>,
  unit: string,
): Promise<Pick<PairResult, 'measured' | 'baseline' | 'ratios'>> {
  if (settings.warmupSeconds > 0) {
    await measured.round(true);
    await baseline.round(true);
  }
  const result = { measured: { name: measured.name, figures: [] as number[] }, baseline: { name: baseline.name, figures: [] as number[] }, ratios: [] as number[] };
  for (let round = 1; round <= settings.rounds; round++) {
    const rate = await measured.round(false);
    const base = await baseline.round(false);
    result.measured.figures.push(rate);
    result.baseline.figures.push(base);
    result.ratios.push(rate / base);
    console.log(`  ${label} round ${round}: ${measured.name} ${rate.toFixed(1)} ${unit}, ${baseline.name} ${base.toFixed(1)} ${unit}, ratio ${(rate / base).toFixed(2)}`);
  }
  return result;
}

/** alternatedRounds of two rates measured over `settings.seconds` (warm-up: `settings.warmupSeconds`). */
export function alternatedRates(
  label: string,
  measured: { name: string; rate: (seconds: number) => Promise<number> },
  baseline: { name: string; rate: (seconds: number) => Promise<number> },
  settings: BenchSettings,
  unit = 'req/s',
): Promise<Pick<PairResult, 'measured' | 'baseline' | 'ratios'>> {
  const side = (s: typeof measured): Side => ({ name: s.name, round: (warmup) => s.rate(warmup ? settings.warmupSeconds : settings.seconds) });
  return alternatedRounds(label, side(measured), side(baseline), settings, unit);
}
