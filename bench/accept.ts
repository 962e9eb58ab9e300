// P2: scheduled `POST /v2/api/pub/ecard-actions/send-ecard` calls (`sendAt` an hour ahead, one recipient, an
// Idempotency-Key each) accepted per second through the API process, against a bare loop of `workflow.start` (the
// one-activity ping workflow) at the same concurrency on the same dev server, rounds alternated (scheduled, bare,
// email-now, share link, …). Email-now (the call waits for the dispatch by the worker process) and share-link
// accepts per second are measured in the same rounds and reported beside the ratio. After each round, outside the
// measured time, the worker is let catch up with what the round started.
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import { createAccount } from '../services/accounts.ts';
import { PING_WORKFLOW } from '../workflows/ping/contract.ts';
import { sendWorkflowId } from '../workflows/send-ecard/contract.ts';
import { benchEcard, closedLoopRate, spread, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

const HOUR_MS = 3600 * 1000;
// Every history event up to the scheduled send's timer: started, workflow task scheduled, started, completed, timer.
const AT_TIMER = 5;
type Kind = 'scheduled' | 'email' | 'share' | 'bare';
const KINDS: Kind[] = ['scheduled', 'bare', 'email', 'share'];

export const acceptsPair: Pair<BenchContext> = {
  name: 'p2-accepts',
  async run(ctx) {
    const { models, client, config, settings, api } = ctx;
    const concurrency = 32;
    const { accountId, liveKey } = await createAccount(models, { name: 'Bench P2', ownerEmail: `bench-accept-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');
    let sequence = 0;
    const accepted = { scheduled: 0, email: 0, share: 0 };
    let pendingAnswers = 0;

    const sendEcard = async (kind: Exclude<Kind, 'bare'>) => {
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
    };

    // Waits until each scheduled send's workflow is at its timer and each ping workflow has finished.
    const settle = async (sendIds: string[], pings: WorkflowHandle[]) => {
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
    };

    const round = async (kind: Kind, seconds: number) => {
      const sendIds: string[] = [];
      const pings: WorkflowHandle[] = [];
      const rate = await closedLoopRate(seconds, concurrency, async () => {
        if (kind !== 'bare') {
          const { sendId } = await sendEcard(kind);
          if (kind === 'scheduled') sendIds.push(sendId);
          return;
        }
        pings.push(await client.workflow.start(PING_WORKFLOW, { taskQueue: config.temporal.taskQueue, workflowId: `bench-accept-bare-${++sequence}`, args: ['x'] }));
      });
      const settling = performance.now();
      await settle(sendIds, pings);
      if (process.env.BENCH_VERBOSE) console.log(`  P2 ${kind}: settled in ${((performance.now() - settling) / 1000).toFixed(1)} s`);
      return rate;
    };

    if (settings.warmupSeconds > 0) for (const kind of KINDS) await round(kind, settings.warmupSeconds);
    const rates: Record<Kind, number[]> = { scheduled: [], bare: [], email: [], share: [] };
    const ratios: number[] = [];
    for (let r = 1; r <= settings.rounds; r++) {
      // Email-now and share links are reported beside the ratio, not compared: one round of each is enough (and keeps
      // the full run under 15 minutes).
      for (const kind of KINDS) if (r === 1 || kind === 'scheduled' || kind === 'bare') rates[kind].push(await round(kind, settings.seconds));
      const at = (kind: Kind) => rates[kind].at(-1)!;
      ratios.push(at('scheduled') / at('bare'));
      const extras = r === 1 ? `; email-now ${at('email').toFixed(1)}/s, share link ${at('share').toFixed(1)}/s` : '';
      console.log(`  P2 round ${r}: scheduled ${at('scheduled').toFixed(1)}/s, bare workflow.start ${at('bare').toFixed(1)}/s, ratio ${ratios.at(-1)!.toFixed(2)}${extras}`);
    }
    // Every accepted call is one send of its mode in the database.
    for (const [kind, mode] of [['scheduled', 'schedule'], ['email', 'email'], ['share', 'share']] as const) {
      const rows = await models.Send.count({ where: { account_id: accountId, mode } });
      if (rows !== accepted[kind]) throw new Error(`P2 ${kind}: ${rows} sends in the database for ${accepted[kind]} accepted calls`);
    }
    return [{
      name: 'p2-accepts',
      compares: `scheduled send-ecard vs bare workflow.start, ${concurrency} connections`,
      target: '≥ 0.8',
      unit: 'req/s',
      measured: { name: 'scheduled send-ecard', figures: rates.scheduled },
      baseline: { name: 'bare workflow.start', figures: rates.bare },
      ratios,
      notes: { concurrency, emailNowPerSecond: rates.email, shareLinkPerSecond: rates.share, emailNowMedian: spread(rates.email).median, shareLinkMedian: spread(rates.share).median, answeredPending: pendingAnswers },
    }];
  },
};
