// What the Temporal benchmarks share: an embedded Temporal dev server, the service on a fresh database (SQLite
// unless DATABASE_URL says otherwise) with a worker, and an eCard to send.
import { mkdtempSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../lib/config.ts';
import { startEmbeddedTemporal } from '../lib/embedded-temporal.ts';
import { createLogger } from '../lib/logger.ts';
import { openDatabase, startWorker } from '../app/runtime.ts';
import { createServices, type Services } from '../app/services.ts';
import type { Ecard } from '../models/Ecard.ts';
import type { Models } from '../models/index.ts';
import { sendCampaign } from '../services/campaigns/moves.ts';
import { newVanityId } from '../services/widgets.ts';
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

export interface BenchStack {
  config: Config;
  models: Models;
  services: Services;
  close(): Promise<void>;
}

/** The service with a worker (no background passes) on task queue `bench`; `env` adds to the bench's settings. */
export async function benchStack(env: Record<string, string>): Promise<BenchStack> {
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
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_TASK_QUEUE: 'bench',
    PLAN_EMAILS: 'free=100,pro=5000,enterprise=100000000',
    ...env,
  });
  const models = await openDatabase(config, 'migrate');
  const services = createServices({ config, logger: createLogger(config), models, temporalAddress: server.address });
  const worker = await startWorker(services, { background: false });
  return {
    config,
    models,
    services,
    close: async () => {
      await worker.stop();
      await services.close();
      await models.sequelize.close();
      await server.stop();
    },
  };
}

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
  stack: Pick<BenchStack, 'models' | 'services'>,
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
