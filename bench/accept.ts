// P2: scheduled `POST /v2/api/pub/ecard-actions/send-ecard` calls (`sendAt` an hour ahead, one recipient, an
// Idempotency-Key each; driven by bench/load.ts) accepted per second through the API process, a round ending when
// the last accepted send's workflow exists, against a bare loop of `workflow.start` (the one-activity ping workflow)
// at the same concurrency on the same dev server, rounds alternated (scheduled, bare, email-now, share link, …).
// Email-now (the call waits for the dispatch by the worker process) and share-link accepts per second are measured
// in the same rounds and reported beside the ratio. After each round, outside the measured time, the worker is let
// catch up with what the round started.
import { createAccount } from '../services/accounts.ts';
import { sendWorkflowId } from '../workflows/send-ecard/contract.ts';
import { benchEcard, spread, untilAtTimer, untilWorkflowsStarted, workflowStartRate, type Pair } from './harness.ts';
import { httpLoad } from './load.ts';
import type { BenchContext } from './stack.ts';

const HOUR_MS = 3600 * 1000;
type Kind = 'scheduled' | 'email' | 'share' | 'bare';
const KINDS: Kind[] = ['scheduled', 'bare', 'email', 'share'];

export const acceptsPair: Pair<BenchContext> = {
  name: 'p2-accepts',
  async run(ctx) {
    const { models, client, config, settings, api } = ctx;
    const concurrency = 32;
    const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench P2', ownerEmail: `bench-accept-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');
    let runs = 0;
    const accepted = { scheduled: 0, email: 0, share: 0 };
    let pendingAnswers = 0;
    // Per scheduled round (warm-up included): how long after the last answer the last workflow started.
    const workflowTailMs: number[] = [];

    // `seconds` of send-ecard calls of one kind at `concurrency` connections (bench/load.ts), each answer checked;
    // the send ids answered and the load's timing.
    const sendEcards = async (kind: Exclude<Kind, 'bare'>, seconds: number) => {
      const run = ++runs;
      const body = {
        ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `Rita R${run}.{{n}}`, personalMessage: '<p>Hi</p>',
        ...(kind === 'share' ? { type: 'ecard_copy_link' } : { recipientEmail: `r${run}.{{n}}@bench.example.com` }),
        // An hour past the round's start: every call of the round is scheduled.
        ...(kind === 'scheduled' ? { sendAt: new Date(Date.now() + HOUR_MS).toISOString() } : {}),
      };
      const load = await httpLoad({
        origin: api.url, method: 'POST', path: '/v2/api/pub/ecard-actions/send-ecard', connections: concurrency, seconds, keepBodies: true,
        headers: { Authorization: `Bearer ${liveKey}`, 'Idempotency-Key': `bench-accept-${run}-{{n}}` },
        body: JSON.stringify(body),
      });
      const sendIds = load.bodies.map((text) => {
        const answer = JSON.parse(text) as { sendId: string; status?: string; emailsSent?: number; shareUrl?: string };
        const ok = kind === 'scheduled' ? answer.status === 'scheduled' : kind === 'share' ? Boolean(answer.shareUrl) : answer.emailsSent === 1 || answer.status === 'pending';
        if (!ok) throw new Error(`${kind} send-ecard: unexpected answer ${text.slice(0, 300)}`);
        if (answer.status === 'pending') pendingAnswers += 1;
        return answer.sendId;
      });
      accepted[kind] += sendIds.length;
      return { load, sendIds };
    };

    // A round's rate: accepted calls per second until the last accepted send's workflow exists (email-now answers
    // after its dispatch, so its workflow exists by its answer; a share link has none, its accept publishes it; a
    // ping exists once `start` returns). Then, outside the measured time, the worker catches up with what the round
    // started.
    const round = async (kind: Kind, seconds: number) => {
      if (kind === 'bare') return workflowStartRate(client, config.temporal.taskQueue, `bench-accept-bare-${++runs}`, seconds, concurrency);
      const { load, sendIds } = await sendEcards(kind, seconds);
      const lastStart = kind === 'scheduled' ? await untilWorkflowsStarted(client, sendIds.map((id) => sendWorkflowId(accountId, id)), concurrency) : 0;
      const rate = sendIds.length / ((Math.max(load.lastAnswerAt, lastStart) - load.startedAt) / 1000);
      if (kind === 'scheduled') workflowTailMs.push(Math.max(0, Math.round(lastStart - load.lastAnswerAt)));
      const settling = performance.now();
      await untilAtTimer(client, kind === 'scheduled' ? sendIds.map((id) => sendWorkflowId(accountId, id)) : [], concurrency);
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
      notes: { concurrency, emailNowPerSecond: rates.email, shareLinkPerSecond: rates.share, emailNowMedian: spread(rates.email).median, shareLinkMedian: spread(rates.share).median, answeredPending: pendingAnswers, workflowTailMs },
    }];
  },
};
