// P15: the service on the real Temporal server (go.temporal.io/server v1.29.1 on PostgreSQL, SQL visibility, 4
// shards; lib/temporal-server.ts) against the same service on the stack's file-backed dev server, rounds alternated:
// scheduled send-ecard accepts per second through an API process (`sendAt` an hour ahead, 32 connections; a round
// ends when the last accepted send's workflow exists), and email sends per second (sends accepted in this process,
// their workflows started at once through the service's lifecycle (tried again when a start gave up, as P1's); a round ends when every send's workflow reports
// its email sent). Each side has its own API and worker processes on the same database and SMTP server; the real
// server is started (and its namespace registered by its worker's own set-up) outside the measured time.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Client } from '@temporalio/client';
import { createServices, type Services } from '../app/services.ts';
import { loadConfig } from '../lib/config.ts';
import { createLogger } from '../lib/logger.ts';
import { startFreshTemporalServer } from '../lib/temporal-server.ts';
import { createAccount } from '../services/accounts.ts';
import { PING_WORKFLOW } from '../workflows/ping/contract.ts';
import { sendWorkflowId } from '../workflows/send-ecard/contract.ts';
import { startSendWorkflow } from '../workflows/send-ecard/lifecycle.ts';
import { acceptMarkedStarted, benchEcard, spread, startApiProcess, startWithin, untilAtTimer, untilWorkflowsStarted, type NodeProcess, type Pair, type PairResult } from './harness.ts';
import { httpLoad } from './load.ts';
import { startChild, type BenchContext } from './stack.ts';

const HOUR_MS = 3600 * 1000;
const CONNECTIONS = 32;
const ACCEPTS_AT_ONCE = 16;

interface Side {
  name: string;
  api: NodeProcess;
  services: Services;
  client: Client;
}

export const topologyPair: Pair<BenchContext> = {
  name: 'p15-topology',
  async run(ctx) {
    const { models, settings } = ctx;
    const perRound = settings.quick ? 50 : 500;
    const dir = join(ctx.dataDir, 'temporal-server');
    mkdirSync(dir, { recursive: true });
    const server = await startFreshTemporalServer({ database: 'temporal_bench', shards: 4, dir, config: ctx.config, postgresUrl: process.env.TEMPORAL_POSTGRES_URL, progress: (line) => console.log(`  P15: ${line}`) });
    const stops: Array<() => Promise<void>> = [() => server.stop()];
    try {
      const env = { ...ctx.env, TEMPORAL_ADDRESS: server.address };
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
      const services = createServices({ config, logger: createLogger(config), models, temporalAddress: server.address, dataKeys: ctx.services.dataKeys });
      stops.push(() => services.close());
      const client = services.workflows!.client;
      // Ready once a ping runs on it: the worker has registered the namespace and its search attributes itself.
      let pings = 0;
      const worker = await startChild('bin/worker.ts', { ...env, LOG_LEVEL: 'warn' }, ctx.logFile('worker-real-temporal.log'), async () => {
        for (;;) {
          try {
            await client.workflow.execute(PING_WORKFLOW, { taskQueue: config.temporal.taskQueue, workflowId: `bench-p15-ready-${++pings}`, args: ['ready'], workflowExecutionTimeout: '2 minutes' });
            return;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        }
      });
      stops.push(() => worker.stop());
      const api = await startApiProcess(env, { logFile: ctx.logFile('api-real-temporal.log') });
      stops.push(() => api.stop());
      const real: Side = { name: 'real server', api, services, client };
      const dev: Side = { name: 'dev server', api: ctx.api, services: ctx.services, client: ctx.client };

      const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench P15', ownerEmail: `bench-topology-${Date.now()}@example.com`, plan: 'enterprise' });
      const account = (await models.Account.findByPk(accountId))!;
      const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');
      let runs = 0;

      // Scheduled accepts per second through the side's API, until the last accepted send's workflow exists.
      const scheduledAccepts = async (side: Side, seconds: number) => {
        const run = ++runs;
        const load = await httpLoad({
          origin: side.api.url, method: 'POST', path: '/v2/api/pub/ecard-actions/send-ecard', connections: CONNECTIONS, seconds, keepBodies: true,
          headers: { Authorization: `Bearer ${liveKey}`, 'Idempotency-Key': `bench-p15-${run}-{{n}}` },
          body: JSON.stringify({
            ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `Rita R${run}.{{n}}`, recipientEmail: `p15-${run}.{{n}}@bench.example.com`,
            personalMessage: '<p>Hi</p>', sendAt: new Date(Date.now() + HOUR_MS).toISOString(),
          }),
        });
        const sendIds = load.bodies.map((text) => {
          const answer = JSON.parse(text) as { sendId: string; status?: string };
          if (answer.status !== 'scheduled') throw new Error(`P15 ${side.name}: unexpected answer ${text.slice(0, 300)}`);
          return answer.sendId;
        });
        const workflowIds = sendIds.map((id) => sendWorkflowId(accountId, id));
        const lastStart = await untilWorkflowsStarted(side.client, workflowIds, CONNECTIONS);
        const rate = sendIds.length / ((Math.max(load.lastAnswerAt, lastStart) - load.startedAt) / 1000);
        // Outside the measured time, as P2: the worker catches up (each workflow at its timer) before the next round.
        await untilAtTimer(side.client, workflowIds, CONNECTIONS);
        return rate;
      };

      // Email sends per second: `n` sends accepted here (outside the measured time), marked started so no sweeper
      // starts them first, then their workflows started at once; the round ends when every one reports its email.
      const emailSends = async (side: Side, n: number) => {
        const sends = [];
        for (let i = 0; i < n; i += ACCEPTS_AT_ONCE) {
          sends.push(...(await Promise.all(Array.from({ length: Math.min(ACCEPTS_AT_ONCE, n - i) }, () => acceptMarkedStarted(side.services, account, ecard.id, `p15-mail-${++runs}@bench.example.com`)))));
        }
        const started = performance.now();
        const results = await Promise.all(sends.map(async (s) => {
          await startWithin(() => startSendWorkflow(side.services.workflows!, accountId, s.send_id, 'pending', { sendPk: s.id, sendAtMs: s.send_at.getTime() }));
          return side.client.workflow.getHandle<(input: unknown) => Promise<{ emailsSent: number }>>(sendWorkflowId(accountId, s.send_id)).result();
        }));
        const unsent = results.filter((r) => r.emailsSent !== 1).length;
        if (unsent) throw new Error(`P15 ${side.name}: ${unsent} of ${n} sends sent no email`);
        return n / ((performance.now() - started) / 1000);
      };

      if (settings.warmupSeconds > 0) {
        for (const side of [real, dev]) {
          await scheduledAccepts(side, settings.warmupSeconds);
          await emailSends(side, Math.max(10, perRound / 10));
        }
      }
      const figures = { accepts: { real: [] as number[], dev: [] as number[] }, sends: { real: [] as number[], dev: [] as number[] } };
      for (let round = 1; round <= settings.rounds; round++) {
        figures.accepts.real.push(await scheduledAccepts(real, settings.seconds));
        figures.accepts.dev.push(await scheduledAccepts(dev, settings.seconds));
        figures.sends.real.push(await emailSends(real, perRound));
        figures.sends.dev.push(await emailSends(dev, perRound));
        const at = (list: number[]) => list.at(-1)!.toFixed(1);
        console.log(`  P15 round ${round}: scheduled accepts real ${at(figures.accepts.real)}/s, dev ${at(figures.accepts.dev)}/s; email sends real ${at(figures.sends.real)}/s, dev ${at(figures.sends.dev)}/s`);
      }
      const result = (name: string, compares: string, unit: string, f: { real: number[]; dev: number[] }): PairResult => ({
        name, compares, target: 'reported', unit,
        measured: { name: 'real Temporal server (PostgreSQL, 4 shards)', figures: f.real },
        baseline: { name: 'Temporal CLI dev server (SQLite file, WAL)', figures: f.dev },
        ratios: f.real.map((r, i) => r / f.dev[i]!),
        notes: { realMedian: spread(f.real).median, devMedian: spread(f.dev).median, connections: CONNECTIONS, sendsPerRound: perRound },
      });
      return [
        result('p15-topology-accepts', `scheduled send-ecard accepts through an API process, real server vs dev server, ${CONNECTIONS} connections`, 'req/s', figures.accepts),
        result('p15-topology-sends', `${perRound} email sends (workflow, render, SMTP) through a worker process, real server vs dev server`, 'sends/s', figures.sends),
      ];
    } finally {
      for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.error(`P15: stopping: ${(err as Error).message}`));
    }
  },
};
