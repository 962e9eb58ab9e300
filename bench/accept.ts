// `npm run bench` (accepts): scheduled `POST /v2/api/pub/ecard-actions/send-ecard` calls (`sendAt` an hour ahead,
// one recipient, an Idempotency-Key each) accepted per second through HTTP, against a bare loop of `workflow.start`
// (the one-activity ping workflow) at the same concurrency on the same Temporal server, rounds alternated in one
// run (scheduled, bare, email-now, share link, …); the median ratio with its min and max (target ≥ 0.8). Email-now
// (to the mail sink; the call waits for the dispatch) and share-link (`type: 'ecard_copy_link'`) accepts per second
// are measured in the same rounds. One account, one full-access key, rate limits and quota raised by
// configuration. The API runs alone as production runs it (`bin/api.ts`, its own process, its log in a file); the
// worker, the clients and the bare loop run in this process (bench/harness.ts) against an in-memory Temporal dev
// server. After each round, outside the measured time, the worker is let catch up with what the round started.
// Settings: BENCH_CONCURRENCY (default 32), BENCH_SECONDS (per round, default 5), BENCH_ROUNDS (default 3),
// BENCH_WARMUP_SECONDS (per kind, default 5; 0 skips it), DATABASE_URL (default: a fresh SQLite file).
// BENCH_CPU_PROF=<dir>: instead, one warm-up and one measured round of scheduled sends only, the API process
// running with `--cpu-prof` into <dir> (the profile is written when it stops).
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { createAccount } from '../services/accounts.ts';
import { sendWorkflowId } from '../workflows/send-ecard/lifecycle.ts';
import { benchEcard, benchStack, closedLoopRate, ratioSummary, startApiProcess } from './harness.ts';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const profileDir = process.env.BENCH_CPU_PROF;
const HOUR_MS = 3600 * 1000;
// Every history event up to the scheduled send's timer: started, workflow task scheduled, started, completed, timer.
const AT_TIMER = 5;

// What the API process and this process's worker both read.
const settings = {
  MAIL_TRANSPORT: 'sink',
  // Far above what the bench sends: every request is counted, none refused.
  RATE_LIMITS: 'free=120/10000,pro=600/50000,enterprise=100000000/100000000',
  PLAN_EMAILS: 'free=100,pro=5000,enterprise=100000000',
};
const bench = await benchStack(settings);
const { config, models, services } = bench;
const { client } = services.workflows!;
const { accountId, liveKey } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-accept-${Date.now()}@example.com`, plan: 'enterprise' });
const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');
const api = await startApiProcess(
  { ...settings, DATABASE_URL: config.database.url, DATA_DIR: config.dataDir, TEMPORAL_ADDRESS: services.temporalAddress!, TEMPORAL_TASK_QUEUE: config.temporal.taskQueue },
  { logFile: join(config.dataDir, 'api.log'), nodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', resolve(profileDir)] : [] },
);

type Kind = 'scheduled' | 'email' | 'share' | 'bare';
let sequence = 0;
const accepted = { scheduled: 0, email: 0, share: 0 };
/** Email-now calls answered before their dispatch ended (after SEND_WAIT_SECONDS). */
let pendingAnswers = 0;

async function sendEcard(kind: Exclude<Kind, 'bare'>): Promise<{ sendId: string; status?: string; emailsSent?: number; shareUrl?: string }> {
  const n = ++sequence;
  const body = {
    ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `Rita R${n}`, personalMessage: '<p>Hi</p>',
    ...(kind === 'share' ? { type: 'ecard_copy_link' } : { recipientEmail: `r${n}@bench.example.com` }),
    ...(kind === 'scheduled' ? { sendAt: new Date(Date.now() + HOUR_MS).toISOString() } : {}),
  };
  const res = await fetch(`${api.url}/v2/api/pub/ecard-actions/send-ecard`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${liveKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': `bench-accept-${n}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { sendId: string; status?: string; emailsSent?: number; shareUrl?: string };
  if (res.status !== 200) throw new Error(`${kind} send-ecard: status ${res.status}: ${JSON.stringify(answer)}`);
  const ok = kind === 'scheduled' ? answer.status === 'scheduled' : kind === 'share' ? Boolean(answer.shareUrl) : answer.emailsSent === 1 || answer.status === 'pending';
  if (!ok) throw new Error(`${kind} send-ecard: unexpected answer ${JSON.stringify(answer)}`);
  if (answer.status === 'pending') pendingAnswers += 1;
  accepted[kind] += 1;
  return answer;
}

/**
 * Waits (outside the measured time) until the worker has caught up with what a round started, so a round's
 * backlog does not slow the next: each scheduled send's workflow at its timer, each ping workflow finished.
 */
async function settle(sendIds: string[], pings: WorkflowHandle[]): Promise<void> {
  await Promise.all(pings.map((handle) => handle.result()));
  let waiting = sendIds.map((id) => client.workflow.getHandle(sendWorkflowId(accountId, id)));
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

/** One round of a kind for `roundSeconds`; calls accepted (or workflows started) per second. */
async function round(kind: Kind, roundSeconds: number): Promise<number> {
  const sendIds: string[] = [];
  const pings: WorkflowHandle[] = [];
  const rate = await closedLoopRate(roundSeconds, concurrency, async () => {
    if (kind !== 'bare') {
      const { sendId } = await sendEcard(kind);
      if (kind === 'scheduled') sendIds.push(sendId);
      return;
    }
    pings.push(await client.workflow.start('pingWorkflow', { taskQueue: config.temporal.taskQueue, workflowId: `bench-accept-bare-${++sequence}`, args: ['x'] }));
  });
  await settle(sendIds, pings);
  return rate;
}

const KINDS: Kind[] = ['scheduled', 'bare', 'email', 'share'];
// The API is a process of its own: stopped whatever happens.
try {
  if (profileDir) {
    console.log(`database ${config.database.dialect}, ${concurrency} concurrent clients: profiling the API process over one round of ${seconds} s of scheduled sends into ${resolve(profileDir)}`);
    if (warmupSeconds > 0) await round('scheduled', warmupSeconds);
    console.log(`scheduled accepts/s: ${(await round('scheduled', seconds)).toFixed(1)}`);
  } else {
    console.log(`database ${config.database.dialect}, ${concurrency} concurrent clients, ${rounds} rounds of ${seconds} s per kind after ${warmupSeconds} s of warm-up each`);
    if (warmupSeconds > 0) for (const kind of KINDS) await round(kind, warmupSeconds);
    const rates: Record<Kind, number[]> = { scheduled: [], bare: [], email: [], share: [] };
    const ratios: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      for (const kind of KINDS) rates[kind].push(await round(kind, seconds));
      const at = (kind: Kind) => rates[kind].at(-1)!;
      ratios.push(at('scheduled') / at('bare'));
      console.log(
        `round ${r}: scheduled ${at('scheduled').toFixed(1)}/s, bare workflow.start ${at('bare').toFixed(1)}/s, ratio ${ratios.at(-1)!.toFixed(2)}; ` +
          `email-now ${at('email').toFixed(1)}/s, share link ${at('share').toFixed(1)}/s`,
      );
    }
    console.log(`scheduled accepts/s: ${ratioSummary(rates.scheduled)}; bare workflow.start/s: ${ratioSummary(rates.bare)}`);
    console.log(`email-now accepts/s: ${ratioSummary(rates.email)}${pendingAnswers ? ` (${pendingAnswers} answered pending)` : ''}; share-link accepts/s: ${ratioSummary(rates.share)}`);
    console.log(`scheduled send-ecard / bare workflow.start: ${ratioSummary(ratios)} (target ≥ 0.8)`);
  }

  // Every accepted call is one send of its mode in the database.
  for (const [kind, mode] of [['scheduled', 'schedule'], ['email', 'email'], ['share', 'share']] as const) {
    const rows = await models.Send.count({ where: { account_id: accountId, mode } });
    if (rows !== accepted[kind]) throw new Error(`${kind}: ${rows} sends in the database for ${accepted[kind]} accepted calls`);
  }
} finally {
  await api.stop();
  await bench.close();
}
