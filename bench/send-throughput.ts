// P1: send workflows per second (render and email over the worker's SMTP pool, one activity) against one-activity
// workflows (ping), both started at once on the same dev server and worker process; 1,000 of each per round.
import { createAccount } from '../services/accounts.ts';
import { PING_WORKFLOW } from '../workflows/ping/contract.ts';
import { sendWorkflowId } from '../workflows/send-ecard/contract.ts';
import { startSendWorkflow } from '../workflows/send-ecard/lifecycle.ts';
import { acceptMarkedStarted, alternatedRounds, benchEcard, startWithin, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

const ACCEPTS_AT_ONCE = 16;

export const sendsPair: Pair<BenchContext> = {
  name: 'p1-sends',
  async run(ctx) {
    const { models, services, client, config, settings } = ctx;
    const perRound = settings.quick ? 50 : 1000;
    const warmup = Math.max(10, perRound / 10);
    const { accountId } = await createAccount(ctx, { name: 'Bench P1', ownerEmail: `bench-send-${Date.now()}@example.com`, plan: 'enterprise' });
    const account = (await models.Account.findByPk(accountId))!;
    const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');
    const target = services.workflows!;
    let sequence = 0;
    const emailsCounted: string[] = [];

    const pingRound = async (warm: boolean) => {
      const n = warm ? warmup : perRound;
      const started = performance.now();
      await Promise.all(Array.from({ length: n }, () => client.workflow.execute(PING_WORKFLOW, { taskQueue: config.temporal.taskQueue, workflowId: `bench-p1-ping-${++sequence}`, args: ['x'] })));
      return n / ((performance.now() - started) / 1000);
    };
    // The sends are accepted first (outside the measured time), 16 at a time; their workflows are then started at once.
    // Each is marked started as soon as it is accepted: the worker's sweeper starts any unstarted send at once, and
    // did so for about a quarter of a round while the rest were being accepted, emailing them before the round began
    // (the "missing" SMTP messages of earlier runs, counted before the round's baseline was read).
    const accept = () => acceptMarkedStarted(services, account, ecard.id, `r${++sequence}@bench.example.com`);
    const sendRound = async (warm: boolean) => {
      const n = warm ? warmup : perRound;
      const before = ctx.smtp.received();
      const sends = [];
      for (let i = 0; i < n; i += ACCEPTS_AT_ONCE) sends.push(...(await Promise.all(Array.from({ length: Math.min(ACCEPTS_AT_ONCE, n - i) }, accept))));
      const early = ctx.smtp.received() - before;
      const started = performance.now();
      const results = await Promise.all(sends.map(async (s) => {
        await startWithin(() => startSendWorkflow(target, accountId, s.send_id, 'pending', { sendPk: s.id, sendAtMs: s.send_at.getTime() }));
        return client.workflow.getHandle<(input: unknown) => Promise<{ status: string; emailsSent: number; error: string | null }>>(sendWorkflowId(accountId, s.send_id)).result();
      }));
      const unsent = results.filter((r) => r.emailsSent !== 1);
      if (unsent.length) throw new Error(`P1: ${unsent.length} of ${n} sends sent no email: ${JSON.stringify(unsent.slice(0, 3))}`);
      const seconds = (performance.now() - started) / 1000;
      // Every email reached the SMTP server (the pool has answered 250 for each, so they have all arrived by now).
      const counted = ctx.smtp.received() - before;
      emailsCounted.push(`${counted}/${n}${early ? ` (${early} before the round)` : ''}`);
      if (counted !== n) throw new Error(`P1: the SMTP server counted ${counted} messages for ${n} sends`);
      return n / seconds;
    };
    const figures = await alternatedRounds('P1', { name: 'send workflow', round: sendRound }, { name: 'one-activity workflow', round: pingRound }, settings, 'workflows/s');
    return [{ name: 'p1-sends', compares: `${perRound} email sends vs ${perRound} one-activity workflows`, target: '≥ 0.5', unit: 'workflows/s', ...figures, notes: { workflowsPerRound: perRound, smtpMessagesPerRound: emailsCounted } }];
  },
};
