// `npm start`: the whole service in one command (migrations, embedded Temporal, worker, API, and the bounce
// listener when BOUNCE_DOMAIN is set).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../lib/config.ts';
import { startEmbeddedTemporal } from '../lib/embedded-temporal.ts';
import { createLogger } from '../lib/logger.ts';
import { onShutdownSignal, runMain } from '../lib/main.ts';
import { ensureDataKeys } from '../lib/data-key.ts';
import { startBounceListener, type RunningBounceListener } from '../app/bounce-listener.ts';
import { openDatabase, startApi, startWorker, type RunningApi, type RunningWorker } from '../app/runtime.ts';
import { createServices, type Services } from '../app/services.ts';
import type { Models } from '../models/index.ts';
import type { DevServer } from '../lib/temporal-dev-server.ts';

/** The account create command the banner and the README name (it asks for the owner's password twice). */
export const FIRST_ACCOUNT_COMMAND = 'npx cardsvc account create --name "Your company" --owner-email you@example.com --password-stdin';

await runMain('npm start', async () => {
  // The all-in-one runs without an SMTP server: live emails go to the mail_sink table unless told otherwise.
  const config = loadConfig(undefined, { mailSinkByDefault: true });
  const logger = createLogger(config);
  const say = (line: string) => console.error(line);
  if (config.mail.sinkByDefault) say('Warning: no SMTP_URL, so emails are not sent: they are kept in the mail_sink table (MAIL_TRANSPORT=sink).');
  await mkdir(config.dataDir, { recursive: true });
  // The all-in-one makes the data key (gift codes, webhook signing secrets) when none is given, once: later starts
  // read the file. The warning names the variable by its current name (REWARDS_ENCRYPTION_KEY is its older one).
  const { keys: dataKeys, generated } = ensureDataKeys(config);
  if (generated) {
    say(`Warning: no DATA_ENCRYPTION_KEY, so a new key that encrypts data at rest (gift codes, webhook signing secrets) was written to ${generated}: back it up (that data cannot be read without it), and in production set DATA_ENCRYPTION_KEY instead.`);
  }

  let models: Models | undefined;
  let devServer: DevServer | undefined;
  let worker: RunningWorker | undefined;
  let api: RunningApi | undefined;
  let bounces: RunningBounceListener | undefined;
  let services: Services | undefined;
  // Stops whatever has started, once, in reverse order; the dev server last, so in-flight workflow tasks can finish.
  let stopped: Promise<void> | undefined;
  const shutdown = () =>
    (stopped ??= (async () => {
      await bounces?.stop();
      await api?.stop();
      await worker?.stop();
      await services?.close();
      await models?.sequelize.close();
      await devServer?.stop();
    })());
  let stopping = false;
  const startUp = (async () => {
    try {
      models = await openDatabase(config, 'migrate');
      let address = config.temporal.address;
      if (address === undefined) {
        say(`Starting the embedded Temporal dev server on port ${config.temporal.port}...`);
        devServer = await startEmbeddedTemporal({
          search: config.temporal,
          progress: say,
          port: config.temporal.port,
          uiPort: config.temporal.uiPort,
          dbFile: join(config.dataDir, 'temporal.sqlite'),
          pidFile: join(config.dataDir, 'temporal.pid'),
          namespace: config.temporal.namespace,
          env: config.temporal.childEnv,
        });
        address = devServer.address;
      }
      // One services object for the worker and the API: a commit in the API wakes the worker's background passes.
      services = createServices({ config, logger, models, temporalAddress: address, dataKeys });
      worker = await startWorker(services);
      api = await startApi(services);
      if (config.bounces.domain) bounces = await startBounceListener(services);
    } catch (err) {
      await shutdown().catch(() => undefined);
      throw err;
    }
  })();
  // Listening from the first step: a SIGTERM (a service manager's stop) or Ctrl-C during start-up lets the step under
  // way finish, then stops what has started; the dev server runs in a process group of its own, so an exit without
  // this would leave it running.
  onShutdownSignal(async () => {
    stopping = true;
    say('Shutting down...');
    await startUp.catch(() => undefined);
    await shutdown();
  });
  await startUp;
  if (stopping) return;
  worker!.done.catch(async (err: unknown) => {
    logger.error({ err }, 'worker stopped unexpectedly');
    await shutdown().finally(() => process.exit(1));
  });

  const base = config.publicBaseUrl;
  say(`Card service ready.`);
  // The way in for a person: the console, and the one step before it (an account whose owner has a password).
  say(`  Console:     ${base}/v2/console`);
  say(`               (first make your account, in another terminal: ${FIRST_ACCOUNT_COMMAND})`);
  say(`  API:         ${base}/v2/api`);
  say(`  OpenAPI:     ${base}/v2/api/openapi.json`);
  say(`  Readiness:   ${base}/readyz`);
  if (bounces) say(`  Bounces:     SMTP on port ${bounces.port} for bounces+<token>@${config.bounces.domain}`);
  say(`  Temporal UI: ${devServer?.uiUrl ?? `(external server at ${config.temporal.address}; open its own UI)`}`);
  say(`  Data:        ${config.dataDir}`);
  say('Press Ctrl-C to stop.');
});
