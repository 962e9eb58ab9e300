// P1: send workflows per second (render and email over the worker's SMTP pool, one activity) against one-activity
// workflows (ping), both started at once on the same dev server and worker process; 1,000 of each per round.
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount } from '../services/accounts.ts';
import { acceptSend } from '../services/sends/accept.ts';
import { startSendWorkflow, sendWorkflowId } from '../workflows/send-ecard/lifecycle.ts';
import { alternatedRounds, benchEcard, type Pair } from './harness.ts';
import type { BenchContext } from './stack.ts';

export const sendsPair: Pair<BenchContext> = {
  name: 'p1-sends',
  async run(ctx) {
    const { models, services, client, config, settings } = ctx;
    const perRound = settings.quick ? 50 : 1000;
    const warmup = Math.max(10, perRound / 10);
    const { accountId } = await createAccount(models, { name: 'Bench P1', ownerEmail: `bench-send-${Date.now()}@example.com`, plan: 'enterprise' });
    const account = (await models.Account.findByPk(accountId))!;
    const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');
    const target = services.workflows!;
    let sequence = 0;
    const emailsCounted: string[] = [];

    const pingRound = async (warm: boolean) => {
      const n = warm ? warmup : perRound;
      const started = performance.now();
      await Promise.all(Array.from({ length: n }, () => client.workflow.execute('pingWorkflow', { taskQueue: config.temporal.taskQueue, workflowId: `bench-p1-ping-${++sequence}`, args: ['x'] })));
      return n / ((performance.now() - started) / 1000);
    };
    // The sends are accepted first (outside the measured time); their workflows are then started at once.
    const sendRound = async (warm: boolean) => {
      const n = warm ? warmup : perRound;
      const sends = [];
      for (let i = 0; i < n; i++) {
        const { send } = await acceptSend(services, account, {
          ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientNames: ['Rita R'], recipientEmails: [`r${++sequence}@bench.example.com`],
          sendAt: undefined, share: false, widgetId: undefined, personalMessage: '<p>Hi</p>', locale: 'en', mergeTags: undefined, overrideProps: undefined,
          idempotencyKey: undefined, requestHash: 'x',
        });
        sends.push(send);
      }
      const before = ctx.smtp.received();
      const started = performance.now();
      const results = await Promise.all(sends.map(async (s) => {
        await startSendWorkflow(target, accountId, s.send_id, 'pending', { sendPk: s.id, sendAtMs: s.send_at.getTime() });
        return client.workflow.getHandle<(input: unknown) => Promise<{ status: string; emailsSent: number; error: string | null }>>(sendWorkflowId(accountId, s.send_id)).result();
      }));
      const unsent = results.filter((r) => r.emailsSent !== 1);
      if (unsent.length) throw new Error(`P1: ${unsent.length} of ${n} sends sent no email: ${JSON.stringify(unsent.slice(0, 3))}`);
      const seconds = (performance.now() - started) / 1000;
      // Open (2026-11-25): on a loaded machine the SMTP server counted fewer messages than sends reporting one email
      // (37 – 40 of 50), even 60 s later; recorded, not thrown, so the pair still reports while that is looked into.
      for (const waitUntil = Date.now() + 10_000; ctx.smtp.received() - before < n && Date.now() < waitUntil; ) await sleep(50);
      emailsCounted.push(`${ctx.smtp.received() - before}/${n}`);
      if (ctx.smtp.received() - before !== n) console.log(`  P1: the SMTP server counted ${ctx.smtp.received() - before} messages for ${n} sends`);
      return n / seconds;
    };
    const figures = await alternatedRounds('P1', { name: 'send workflow', round: sendRound }, { name: 'one-activity workflow', round: pingRound }, settings, 'workflows/s');
    return [{ name: 'p1-sends', compares: `${perRound} email sends vs ${perRound} one-activity workflows`, target: '≥ 0.5', unit: 'workflows/s', ...figures, notes: { workflowsPerRound: perRound, smtpMessagesPerRound: emailsCounted } }];
  },
};
