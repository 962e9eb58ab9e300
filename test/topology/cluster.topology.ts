// The production topology, proven here (docs/operations.md, "Topology"): the real Temporal server (built from
// go.temporal.io/server, PostgreSQL persistence and SQL visibility, 4 shards), the service's database on MariaDB, two
// API processes and two workers as child processes. Nothing registers the namespace but the workers' own set-up.
// A campaign, an automation firing, scheduled and immediate sends, a widget send and their webhook deliveries run
// while a worker is SIGKILLed and the Temporal server is SIGKILLed and restarted; the drills' rule holds (at most
// one email per recipient, at least one delivery per event, every accepted item final), and every workflow is found
// by its search attributes, as an operator finds it in the Temporal UI.
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { Op } from 'sequelize';
import type { TemporalServer } from '../../lib/temporal-server.ts';
import { SEARCH_ATTRIBUTES } from '../../lib/temporal.ts';
import { localDateOf } from '../../services/automations/local-date.ts';
import { OUTCOME_UNKNOWN } from '../../services/sends/delivery/delivery.ts';
import { MIN_FILL_MS } from '../../services/widgets/public/send.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { campaignWorkflowId } from '../../workflows/campaign/contract.ts';
import { sendWorkflowId } from '../../workflows/send-ecard/contract.ts';
import { apiClient, call, expectSuccess, type ApiClient } from '../helpers/api.ts';
import { createFiringSchedule, firingZone, insertAutomation, startedFirings, triggerTimes } from '../helpers/automations.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';
import { insertPublicWidget, widgetData } from '../helpers/public-widget.ts';
import { testReceiver, type Receiver } from '../helpers/receiver.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { temporalCluster } from '../helpers/temporal-cluster.ts';
import { expectOncePerAddress, killDuringDelivery, startServiceChild, type WorkerChild } from '../helpers/worker-child.ts';
import { drillEnv, drillModels, expectPass, mailsTo, newTenant, servicesOn, settled, step, stopChildren, waitReady, type Tenant } from '../drills/harness.ts';
import type { Models } from '../../models/index.ts';

/** The topology's MariaDB database, made afresh (TOPOLOGY_DATABASE_URL overrides it). */
const DATABASE_URL = process.env.TOPOLOGY_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/cardsvc_topology';
/** A namespace no server has: the workers' set-up must register it. */
const NAMESPACE = 'cardsvc-topology';
const RETENTION_DAYS = 3;
const domain = `topology-${process.pid}.example.com`;
const CAMPAIGN_RECIPIENTS = 40;
const MEMBERS = 20;
// Batches of 20 in micro-batches of 5 (the SMTP pool): when a worker dies, at most one micro-batch is in flight.
const SETTINGS = { BULK_CONCURRENCY: '1', BULK_BATCH_SIZE: '20', SMTP_POOL_SIZE: '5', TEMPORAL_NAMESPACE: NAMESPACE, TEMPORAL_RETENTION_DAYS: String(RETENTION_DAYS), RATE_LIMIT_PROCESSES: '2' };

/** "rule … broke for item …": what a failure message names. */
const rule = (name: string, item: string) => `rule "${name}" broke for ${item}`;

describe('topology: the service on a real Temporal cluster (PostgreSQL, 4 shards), two APIs and two workers on MariaDB', function () {
  this.timeout(600_000);
  let server: TemporalServer;
  let models: Models;
  let smtp: SmtpTestServer;
  let receiver: Receiver;
  let client: Client;
  let env: Record<string, string | undefined>;
  const apis: Array<WorkerChild & { url: string }> = [];
  const workers: WorkerChild[] = [];

  before(async () => {
    [server, models, smtp, receiver] = await Promise.all([temporalCluster('temporal_topology'), drillModels(DATABASE_URL), testSmtpServer(), testReceiver()]);
    step(`Temporal server ready at ${server.address}`);
    const ports = [await freePort(), await freePort()];
    env = await drillEnv({ databaseUrl: DATABASE_URL, temporalAddress: server.address, port: ports[0]!, smtp, settings: SETTINGS });
    // All four at once, as an orchestrator starts them: the workers race to register the namespace.
    for (const port of ports) {
      const child = startServiceChild('bin/api.ts', { ...env, PORT: String(port) });
      apis.push({ ...child, url: `http://127.0.0.1:${port}` });
    }
    workers.push(startServiceChild('bin/worker.ts', env), startServiceChild('bin/worker.ts', env));
    await Promise.all(apis.map((api) => waitReady(api.url, api, 120_000)));
    step('both APIs ready');
    const connection = await Connection.connect({ address: server.address });
    onSuiteEnd(() => connection.close());
    client = new Client({ connection, namespace: NAMESPACE });
    // Both workers set up and polling, as an operator sees them in the Temporal UI (the task queue's pollers).
    const pollers = async () => {
      const queue = await client.workflowService.describeTaskQueue({ namespace: NAMESPACE, taskQueue: { name: env.TEMPORAL_TASK_QUEUE! }, taskQueueType: 1 }).catch(() => undefined);
      return new Set((queue?.pollers ?? []).map((p) => p.identity)).size;
    };
    await eventually(pollers, (count) => count === 2 || workers.some((w) => w.child.exitCode !== null), 120_000, 500);
    for (const w of workers) expect(w.child.exitCode, rule('the service sets itself up', `a worker, which exited:\n${w.output()}`)).to.equal(null);
    step('both workers polling');
  });

  after(async () => {
    await stopChildren(...workers, ...apis);
  });

  it("the workers' own set-up registered the namespace with its retention and the search attributes, both workers running", async () => {
    const described = await client.workflowService.describeNamespace({ namespace: NAMESPACE });
    expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds), rule('namespace retention', NAMESPACE)).to.equal(RETENTION_DAYS * 86_400);
    const listed = await client.connection.operatorService.listSearchAttributes({ namespace: NAMESPACE });
    expect(Object.keys(listed.customAttributes ?? {}), rule('search attributes registered', NAMESPACE)).to.include.members([...SEARCH_ATTRIBUTES]);
  });

  describe('work through a worker SIGKILL and a Temporal server SIGKILL and restart', () => {
    let tenant: Tenant;
    let second: ApiClient;
    // Emails to the single sends', widget's and firing's recipients, and to the campaign's (a domain of its own).
    let singles: ReturnType<typeof mailsTo>;
    let campaignMails: ReturnType<typeof mailsTo>;
    let campaignId: number;
    let firingId: string;
    const sendIds: string[] = [];
    let n = 0;

    const sendEcard = async (via: Pick<ApiClient, 'api'>, sendAt?: Date) => {
      const res = await via.api('POST', '/pub/ecard-actions/send-ecard', {
        ecardId: tenant.ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `R${n}`, recipientEmail: `single${n++}@${domain}`,
        ...(sendAt ? { sendAt: sendAt.toISOString() } : {}),
      });
      expect(res.status, rule('every accept answered', `send-ecard ${JSON.stringify(res.body)}`)).to.equal(200);
      sendIds.push(res.body.sendId as string);
    };

    it('runs a campaign, an automation firing, scheduled, immediate and widget sends; every item ends final', async () => {
      tenant = await newTenant(models, apis[0]!.url, receiver, 'topology');
      second = apiClient(apis[1]!.url, tenant.account.liveKey);
      const accountId = tenant.account.accountId;
      singles = mailsTo(smtp, domain);
      campaignMails = mailsTo(smtp, `c.${domain}`);
      // The first worker dies (SIGKILL) when SMTP takes the campaign's 12th email, a micro-batch in flight.
      const kill = killDuringDelivery(smtp, `c.${domain}`, workers[0]!, 12);

      // The campaign, through the first API.
      campaignId = (await tenant.ok('POST', '/campaign/save', { campaign: { campaign_name: 'Topology', from_email: 'hr@example.com' } })).id as number;
      await tenant.ok('POST', '/campaign/saveCampaignEcards', { campaignid: campaignId, ecardIds: [tenant.ecardId] });
      await tenant.ok('POST', '/campaign/saveRecipients', { campaignid: campaignId, csvRecipients: Array.from({ length: CAMPAIGN_RECIPIENTS }, (_, i) => ({ email: `r${i}@c.${domain}`, first_name: `R${i}` })) });

      // The automation: members whose birthday is today, its Schedule made by the lifecycle on the cluster.
      const zone = firingZone();
      const today = localDateOf(new Date(), zone);
      await models.TeamMember.bulkCreate(
        Array.from({ length: MEMBERS }, (_, j) => ({
          account_id: accountId, email: `m${j}@${domain}`, employee_id: null, first_name: `M${j}`, last_name: null, job_position: null,
          date_of_birth: `1990-${today.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
        })),
      );
      const automation = await insertAutomation(models, accountId, zone, tenant.ecardId);
      const schedule = await createFiringSchedule(servicesOn(env, models, server.address), automation);
      onSuiteEnd(async () => {
        await automation.update({ enabled: false });
      });

      expect((await tenant.ok('POST', '/campaign/send', { campaignid: campaignId })).status).to.equal('sending');
      [firingId] = (await startedFirings(schedule, 1, triggerTimes(schedule, 1))) as [string];
      // Immediate sends through both APIs.
      for (let i = 0; i < 4; i++) await sendEcard(i % 2 ? second : tenant);
      // A visitor's send from the public widget, through the second API.
      const { widget } = await insertPublicWidget(models, accountId);
      const gallery = expectSuccess(await widgetData(apis[1]!.url, widget.vanity_id)) as { form_token: string; ecards: Array<{ vanity_id: string }> };
      // A person's pace: a quicker send is refused as a bot's.
      await sleep(MIN_FILL_MS + 500);
      const widgetSend = await call(apis[1]!.url, 'POST', `/v2/widget/${widget.vanity_id}/send`, {
        body: {
          form_token: gallery.form_token, fax_number: '', ecard: gallery.ecards[0]!.vanity_id, share_mode: 'email',
          sender: { name: 'Vi', email: `visitor@${domain}` }, recipients: [{ name: 'Wen', email: `w0@${domain}` }, { name: 'Wu', email: `w1@${domain}` }], personalMessage: 'Congratulations!',
        },
      });
      expect(widgetSend.status, rule('every accept answered', `the widget send ${JSON.stringify(widgetSend.body)}`)).to.equal(200);
      sendIds.push(widgetSend.body.sendId as string);

      // The worker kill happens mid-campaign.
      expect(await workers[0]!.exited, rule('worker SIGKILL', 'the first worker')).to.equal('SIGKILL');
      kill.stop();
      step(`worker killed at campaign email ${kill.received.length}`);

      // Sends scheduled 20 s ahead, then the Temporal server SIGKILLed while their workflows sleep on durable timers
      // (none sent yet: the timers fire after the restart); two sends accepted while it is down.
      const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 20_000);
      for (let i = 0; i < 6; i++) await sendEcard(i % 2 ? second : tenant, at);
      const scheduledIds = sendIds.slice(-6);
      const sleeping = await models.Send.count({ where: { account_id: accountId, send_id: scheduledIds, status: { [Op.ne]: 'sent' } } });
      expect(sleeping, 'the scheduled sends were still asleep at the server kill').to.equal(6);
      await server.kill();
      step('Temporal server killed');
      for (let i = 0; i < 2; i++) await sendEcard(i % 2 ? second : tenant);
      await sleep(2000);
      await server.restart();
      step('Temporal server restarted');
      // A replacement for the dead worker, as an orchestrator restarts a process that exited (a worker that starts
      // while Temporal is down exits at its set-up, and is restarted the same way).
      workers.push(startServiceChild('bin/worker.ts', env));

      const campaign = await eventually(() => tenant.ok('GET', `/campaign/findOne/id/${campaignId}`), (c) => c.status === 'sent' || c.status === 'failed', 240_000, 1000);
      expect(campaign.status, rule('every accepted item final', `campaign ${campaignId}`)).to.equal('sent');
      const counts = campaign.counts as Record<'sent' | 'unknown' | 'failed' | 'pending', number>;
      expect(counts, rule('every accepted item final', `campaign ${campaignId}'s recipients`)).to.include({ failed: 0, pending: 0 });
      expect(counts.sent + counts.unknown).to.equal(CAMPAIGN_RECIPIENTS);
      const firing = (await client.workflow.getHandle(firingId).result()) as AutomationFiringResult;
      expect(firing.status, rule('every accepted item final', `firing ${firingId}`)).to.equal('fired');
      expect(firing.found?.cards).to.equal(MEMBERS);
      await settled(models, accountId, 240_000);
      // Sent, or "outcome unknown" as the campaign's in-flight micro-batch: an attempt that had handed its email to SMTP
      // when its worker died (or its activity timed out on a loaded machine) is never sent again. The next test checks
      // that every one of their recipients got the email, once.
      const sends = await models.Send.findAll({ attributes: ['send_id', 'status', 'error'], where: { account_id: accountId, send_id: sendIds }, raw: true });
      const final = (s: { status: string; error: string | null }) => s.status === 'sent' || (s.status === 'failed' && s.error === OUTCOME_UNKNOWN);
      expect(sends.filter((s) => !final(s)).map((s) => `${s.send_id}: ${s.status} ${s.error ?? ''}`), rule('every accepted item final', 'the single sends')).to.deep.equal([]);
      expect(sends).to.have.length(sendIds.length);
      for (const w of workers.slice(1)) expect(w.child.exitCode, `a worker exited:\n${w.output()}`).to.equal(null);
    });

    it('holds the drills\' rule: at most one email per recipient, every event delivered at least once under its id', async () => {
      singles.stop();
      campaignMails.stop();
      const received = [...singles.received, ...campaignMails.received];
      try {
        expectOncePerAddress(received);
      } catch (err) {
        throw new Error(`${rule('at most one email per recipient', 'the account')}: ${(err as Error).message}`, { cause: err });
      }
      // Every recipient of the single sends, the widget and the firing got theirs; the campaign may miss only the
      // micro-batch in flight at the kill (its rows end `unknown`, never sent twice).
      const got = new Set(received.map((m) => m.to[0]));
      const expected = [...Array.from({ length: n }, (_, i) => `single${i}@${domain}`), `w0@${domain}`, `w1@${domain}`, ...Array.from({ length: MEMBERS }, (_, j) => `m${j}@${domain}`)];
      expect(expected.filter((a) => !got.has(a)), rule('every accepted item final', 'emails never received')).to.deep.equal([]);
      const campaignSent = await models.CampaignRecipient.findAll({ attributes: ['email'], where: { campaign_id: campaignId, status: 'sent' }, raw: true });
      expect(campaignSent.filter((r) => !got.has(r.email)).map((r) => r.email), rule('every accepted item final', 'campaign recipients counted sent without an email')).to.deep.equal([]);
      await expectPass(models, tenant, receiver, received);
    });

    it('finds each workflow by its search attributes (CardAccountId, CardKind), as the Temporal UI lists them', async () => {
      const accountId = tenant.account.accountId;
      const listed = async (kind: string) => {
        const ids: string[] = [];
        for await (const w of client.workflow.list({ query: `CardAccountId = '${accountId}' AND CardKind = '${kind}'` })) ids.push(w.workflowId);
        return ids;
      };
      const deliveries = await models.WebhookDelivery.findAll({ attributes: ['workflow_id'], where: { account_id: accountId }, raw: true });
      const wanted: Record<string, string[]> = {
        campaign: [campaignWorkflowId(accountId, campaignId)],
        automation: [firingId],
        send: sendIds.map((id) => sendWorkflowId(accountId, id)),
        webhook: deliveries.map((d) => d.workflow_id),
      };
      // One ecard_shared delivery per single send at least (the campaign's and the firing's sends add theirs).
      expect(deliveries.length).to.be.at.least(sendIds.length);
      for (const [kind, ids] of Object.entries(wanted)) {
        // Visibility follows the workflows by moments: waited for, in whole seconds.
        const found = await eventually(() => listed(kind), (l) => ids.every((id) => l.includes(id)), 60_000, 1000);
        expect(ids.filter((id) => !found.includes(id)), rule('found by search attributes', `CardKind = '${kind}'`)).to.deep.equal([]);
      }
    });
  });
});
