// `npm run bench` (third part): send workflows per second (render + email to the mail sink, one activity)
// against a one-activity workflow (ping) on the same embedded Temporal server and worker, measured in the same
// run (alternating rounds) and reported as a ratio. Settings: BENCH_SENDS (workflows per round, default 100),
// BENCH_ROUNDS (default 3), DATABASE_URL (default: a fresh SQLite file).
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { startEmbeddedTemporal } from '../lib/embedded-temporal.ts';
import { createLogger } from '../lib/logger.ts';
import { openDatabase, startWorker } from '../app/runtime.ts';
import { createServices } from '../app/services.ts';
import { createAccount } from '../services/accounts.ts';
import { acceptSend } from '../services/sends/accept.ts';
import { newVanityId } from '../services/widgets.ts';
import { startSendWorkflow, sendWorkflowId } from '../workflows/send-ecard/lifecycle.ts';

const perRound = Number(process.env.BENCH_SENDS ?? 100);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(join(tmpdir(), 'cardsvc-bench-'));
const base = loadConfig({ DATA_DIR: dataDir, PATH: process.env.PATH, HOME: process.env.HOME });
const server = await startEmbeddedTemporal({
  search: base.temporal,
  progress: () => undefined,
  port: await freePort(),
  uiPort: undefined,
  dbFile: undefined,
  pidFile: undefined,
  namespace: 'default',
  env: base.temporal.childEnv,
});
const config = loadConfig({
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dataDir, 'bench.sqlite')}`,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  MAIL_TRANSPORT: 'sink',
  TEMPORAL_ADDRESS: server.address,
  TEMPORAL_TASK_QUEUE: 'bench',
  PLAN_EMAILS: 'free=100,pro=5000,enterprise=100000000',
});
const models = await openDatabase(config, 'migrate');
const services = createServices({ config, logger: createLogger(config), models, temporalAddress: server.address });
const worker = await startWorker(services, { background: false });
const target = services.workflows!;
const { client } = target;

const { accountId } = await createAccount(models, { name: 'Bench', ownerEmail: `bench-send-${Date.now()}@example.com`, plan: 'enterprise' });
const account = (await models.Account.findByPk(accountId))!;
const widget = await models.Widget.create({ account_id: accountId, vanity_id: newVanityId(), name: 'Bench', wconfig: {} });
const ecard = await models.Ecard.create({
  account_id: accountId, widget_id: widget.id, vanity_id: newVanityId(), name: 'Bench', email_subject: 'Hi {{recipient_first_name}}', header: 'Hello',
  details: '<p>Dear {{recipient_name}}, greetings from {{sender_name}}.</p>', ecard_link: null, url_redirect_after_send: null, ecardbrandid: null, ecard_mode: null,
  envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null, self_hosted_url: null, price: null,
});

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
await worker.stop();
await services.close();
await models.sequelize.close();
await server.stop();
