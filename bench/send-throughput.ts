// `npm run bench` (third part): send workflows per second (render + email to the mail sink, one activity)
// against a one-activity workflow (ping) on the same embedded Temporal server and worker, measured in the same
// run (alternating rounds) and reported as a ratio. Settings: BENCH_SENDS (workflows per round, default 100),
// BENCH_ROUNDS (default 3), DATABASE_URL (default: a fresh SQLite file).
import { createAccount } from '../services/accounts.ts';
import { benchEcard, benchStack } from './harness.ts';
import { acceptSend } from '../services/sends/accept.ts';
import { startSendWorkflow, sendWorkflowId } from '../workflows/send-ecard/lifecycle.ts';

const perRound = Number(process.env.BENCH_SENDS ?? 100);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const bench = await benchStack({ MAIL_TRANSPORT: 'sink' });
const { config, models, services } = bench;
const target = services.workflows!;
const { client } = target;

const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-send-${Date.now()}@example.com`, plan: 'enterprise' });
const account = (await models.Account.findByPk(accountId))!;
const ecard = await benchEcard(models, accountId, 'Hi {{recipient_first_name}}');

let sequence = 0;
async function pingRound(): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: perRound }, () => client.workflow.execute('pingWorkflow', { taskQueue: 'bench', workflowId: `bench-ping-${++sequence}`, args: ['x'] })));
  return perRound / ((performance.now() - started) / 1000);
}

async function sendRound(): Promise<number> {
  const sends = [];
  for (let i = 0; i < perRound; i++) {
    const { send } = await acceptSend(services, account, {
      ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientNames: ['Rita R'], recipientEmails: [`r${++sequence}@example.com`],
      sendAt: undefined, share: false, widgetId: undefined, personalMessage: '<p>Hi</p>', locale: 'en', mergeTags: undefined, overrideProps: undefined,
      idempotencyKey: undefined, requestHash: 'x',
    });
    sends.push(send);
  }
  const started = performance.now();
  await Promise.all(sends.map(async (s) => {
    await startSendWorkflow(target, accountId, s.send_id, 'pending', { sendPk: s.id, sendAtMs: s.send_at.getTime() });
    await client.workflow.getHandle(sendWorkflowId(accountId, s.send_id)).result();
  }));
  return perRound / ((performance.now() - started) / 1000);
}

console.log(`database ${config.database.dialect}, ${rounds} rounds of ${perRound} workflows each (emails to the mail sink)`);
await pingRound(); // warm-up
await sendRound();
const totals = { ping: 0, send: 0 };
for (let round = 1; round <= rounds; round++) {
  const ping = await pingRound();
  const send = await sendRound();
  totals.ping += ping;
  totals.send += send;
  console.log(`round ${round}: one-activity workflow ${ping.toFixed(1)}/s, send workflow ${send.toFixed(1)}/s, ratio ${(send / ping).toFixed(2)}`);
}
console.log(`send / one-activity workflow throughput: ${(totals.send / totals.ping).toFixed(2)}`);
await bench.close();
