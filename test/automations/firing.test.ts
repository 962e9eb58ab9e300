// Automation firings with real parts: an in-process worker on its own task queue, the suite's Temporal dev server
// (Schedules and their trigger-now), the in-process SMTP server and the suite's database. Each test makes its own
// account, members, automation and Schedule, and fires through the Schedule.
import { ScheduleOverlapPolicy, type Client, type ScheduleHandle } from '@temporalio/client';
import { expect } from 'chai';
import { Op, type InferCreationAttributes } from 'sequelize';
import { startWorker } from '../../app/runtime.ts';
import type { Services } from '../../app/services.ts';
import type { Models } from '../../models/index.ts';
import type { TeamMember } from '../../models/TeamMember.ts';
import { sendAutomationBatch } from '../../services/automations/batch.ts';
import { addDays, localDateOf, parseLocalDate, sendInstant } from '../../services/automations/local-date.ts';
import { AUTOMATION_FIRING_WORKFLOW, automationFanOutWorkflowId } from '../../workflows/automation/contract.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import {
  createFiringSchedule, FIRING_SEND_TIME as SEND_TIME, firings, firingZone, insertAutomation, startedFirings, triggerTimes, type AutomationFields, type EcardRef,
} from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { maybeRecordHistory } from '../helpers/histories.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testConfig, testModels, testServices } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';

type Fields = Partial<InferCreationAttributes<TeamMember>>;

const zone = firingZone();

describe('automations: firings from the Schedule', function () {
  this.timeout(120_000);
  let models: Models;
  let services: Services;
  let smtp: SmtpTestServer;
  let client: Client;
  let taskQueue: string;
  let account: TestAccount;
  let domain: string;
  let ecardId: number;
  let counter = 0;

  before(async () => {
    smtp = await testSmtpServer();
    models = await testModels();
    taskQueue = `cardsvc-automation-firing-${process.pid}`;
    const env = { TEMPORAL_TASK_QUEUE: taskQueue, PLAN_EMAILS: 'free=3,pro=100000,enterprise=100000', BULK_BATCH_SIZE: '50' };
    services = await testServices(await testConfig(env));
    const worker = await startWorker(services, { background: false });
    after(() => worker.stop());
    client = await testClient();
  });
  beforeEach(async () => {
    account = await newAccount(models, 'pro');
    domain = `auto${process.pid}-${++counter}.example.com`;
    const widget = await insertWidget(models, account.accountId);
    ecardId = (await insertEcard(models, account.accountId, widget.id)).id;
    await models.Ecard.update({ email_subject: 'For {{recipient_name}}{{#if years}}: {{years_ordinal}} year{{/if}}', details: '<p>On {{occasion_date}}</p>' }, { where: { id: ecardId } });
  });

  const today = () => localDateOf(new Date(), zone);
  const monthDay = (date: string, year: number) => `${year}-${date.slice(5)}`;
  const member = (i: number, fields: Fields = {}) =>
    models.TeamMember.create({
      account_id: account.accountId, email: `m${i}@${domain}`, employee_id: null, first_name: `First${i}`, last_name: `Last${i}`, job_position: null,
      date_of_birth: null, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, ...fields,
    });
  // 1992 is a leap year: any month and day exists in it.
  const bornOn = (date: string) => ({ date_of_birth: monthDay(date, 1992) });

  async function automation(fields: AutomationFields = {}, refs: EcardRef[] = [], selected = ecardId) {
    const row = await insertAutomation(models, account.accountId, zone, selected, fields, refs);
    return { row, handle: await createFiringSchedule(services, row) };
  }
  const fire = (handle: ScheduleHandle, count = 1, overlap?: ScheduleOverlapPolicy) => firings(client, handle, count, triggerTimes(handle, count, overlap));

  const rowsOf = async (automationId: number) =>
    (await models.AutomationSend.findAll({ where: { automation_id: automationId }, order: [['id', 'ASC']] })).map((r) => r.get({ plain: true }));
  const mailsTo = (i: number) => smtp.to(`m${i}@${domain}`);

  it('sends one card to each due member (sends with origin automation); a second trigger and two overlapping firings send nothing twice', async () => {
    const d = today();
    await member(0, bornOn(d));
    await member(1, bornOn(d));
    await member(2, bornOn(addDays(d, -1))); // yesterday: its firing had passed when the automation was enabled
    await member(3, bornOn(addDays(d, 1)));
    await member(4, { ...bornOn(d), disabled: true });
    await member(5, {});
    const { row, handle } = await automation();

    const [firingId] = await startedFirings(handle, 1, triggerTimes(handle, 1));
    const first = (await client.workflow.getHandle(firingId!).result()) as AutomationFiringResult;
    expect(first).to.deep.include({ status: 'fired', firingDate: d });
    await maybeRecordHistory(client, firingId!, 'automation-firing-workflow');
    await maybeRecordHistory(client, automationFanOutWorkflowId(account.accountId, row.id, d), 'automation-fan-out-workflow');
    expect(first.counts).to.deep.equal({ sent: 2, failed: 0, unknown: 0, skipped: 0 });
    for (const i of [0, 1]) {
      const mails = mailsTo(i);
      expect(mails, `member ${i}`).to.have.length(1);
      expect(mails[0]!.subject).to.equal(`For First${i} Last${i}`);
      expect(mails[0]!.html).to.contain(`On ${d}`).and.contain('Many happy returns!');
      expect(mails[0]!.headers['list-unsubscribe']).to.be.a('string');
    }
    for (const i of [2, 3, 4, 5]) expect(mailsTo(i), `member ${i}`).to.have.length(0);
    const rows = await rowsOf(row.id);
    expect(rows.map((r) => [r.status, r.kind, r.occurrence_key, r.firing_date, r.ecard_id, r.message])).to.deep.equal([
      ['sent', 'card', d.slice(0, 4), d, ecardId, 'Many happy returns!'],
      ['sent', 'card', d.slice(0, 4), d, ecardId, 'Many happy returns!'],
    ]);
    const sends = await models.Send.findAll({ where: { id: rows.map((r) => r.send_id!) } });
    expect(sends.map((s) => [s.origin, s.origin_id, s.status])).to.deep.equal([['automation', row.id, 'sent'], ['automation', row.id, 'sent']]);
    expect((await models.Automation.findByPk(row.id))!.watermark).to.equal(d);

    // Again from the Schedule, then twice more with overlaps allowed: the rows exist, nothing is sent again.
    const [again] = await fire(handle);
    expect(again).to.deep.include({ status: 'fired', firingDate: d });
    await fire(handle, 2, ScheduleOverlapPolicy.ALLOW_ALL);
    for (const i of [0, 1]) expect(mailsTo(i), `member ${i}`).to.have.length(1);
    expect(await rowsOf(row.id)).to.have.length(2);
  });

  it('two firings of one day at once: one fan-out at a time (the other waits for it), no member gets two cards', async () => {
    const d = today();
    for (let i = 0; i < 30; i++) await member(i, bornOn(d));
    const { row } = await automation();
    const start = () => client.workflow.start(AUTOMATION_FIRING_WORKFLOW, {
      taskQueue, workflowId: `firing-by-hand-${row.id}-${crypto.randomUUID()}`, args: [{ accountId: account.accountId, automationId: row.id, scheduledAt: new Date().toISOString() }],
    });
    const results = await Promise.all((await Promise.all([start(), start()])).map((h) => h.result() as Promise<AutomationFiringResult>));
    expect(results.map((r) => r.status)).to.deep.equal(['fired', 'fired']);
    const sent = results.reduce((n, r) => n + (r.counts?.sent ?? 0), 0);
    expect(sent).to.equal(30);
    for (let i = 0; i < 30; i++) expect(mailsTo(i), `member ${i}`).to.have.length(1);
    expect((await rowsOf(row.id)).map((r) => r.status)).to.deep.equal(Array(30).fill('sent'));
  });

  it('a disabled automation sends nothing (its paused Schedule triggered by hand)', async () => {
    const d = today();
    await member(0, bornOn(d));
    const { row, handle } = await automation({ enabled: false });
    const [result] = await fire(handle);
    expect(result).to.deep.include({ status: 'disabled', firingDate: null });
    expect(mailsTo(0)).to.have.length(0);
    expect(await rowsOf(row.id)).to.deep.equal([]);
    expect((await models.Automation.findByPk(row.id))!.watermark).to.equal(row.watermark);
  });

  it('a watermark older than 3 days: occasions before D − 3 are recorded missed, the last 3 days are sent', async () => {
    const d = today();
    await member(0, bornOn(addDays(d, -6)));
    await member(1, bornOn(addDays(d, -2)));
    await member(2, bornOn(d));
    await member(3, bornOn(addDays(d, -12)));
    const { row, handle } = await automation({ watermark: addDays(d, -10) });
    const [result] = await fire(handle);
    expect(result!.found).to.deep.equal({ cards: 2, digests: 0, missed: 1 });
    const rows = await rowsOf(row.id);
    const byMember = new Map(rows.map((r) => [r.member_id, r]));
    const ids = await models.TeamMember.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    expect(byMember.get(ids[0]!.id)).to.deep.include({ status: 'missed', firing_date: d, occasion_date: addDays(d, -6) });
    expect(byMember.get(ids[1]!.id)!.status).to.equal('sent');
    expect(byMember.get(ids[2]!.id)!.status).to.equal('sent');
    expect(byMember.has(ids[3]!.id)).to.equal(false);
    expect(mailsTo(0)).to.have.length(0);
    expect(mailsTo(1)).to.have.length(1);
    expect(mailsTo(2)).to.have.length(1);
    expect(mailsTo(3)).to.have.length(0);
  });

  it('D is the local date of the Schedule\'s nominal time: a backfill of yesterday\'s firing sends yesterday\'s occasions', async () => {
    const d = today();
    const yesterday = addDays(d, -1);
    await member(0, bornOn(yesterday));
    await member(1, bornOn(d));
    const { row, handle } = await automation({ watermark: addDays(d, -2) });
    const nominal = sendInstant(yesterday, SEND_TIME, zone).getTime();
    const [result] = await firings(client, handle, 1, () =>
      handle.backfill([{ start: new Date(nominal - 60_000), end: new Date(nominal + 60_000), overlap: ScheduleOverlapPolicy.ALLOW_ALL }]));
    expect(result).to.deep.include({ status: 'fired', firingDate: yesterday });
    expect(mailsTo(0)).to.have.length(1);
    expect(mailsTo(1)).to.have.length(0);
    expect((await models.Automation.findByPk(row.id))!.watermark).to.equal(yesterday);
  });

  it('anniversaries: years tags, and a milestone year takes its rule\'s eCard and message', async () => {
    const d = today();
    const widget = await insertWidget(models, account.accountId);
    const milestoneCard = await insertEcard(models, account.accountId, widget.id);
    await models.Ecard.update({ email_subject: 'Milestone {{years}} ({{years_ordinal}})' }, { where: { id: milestoneCard.id } });
    const year = parseLocalDate(d).year;
    await member(0, { hire_date: monthDay(d, year - 3) });
    await member(1, { hire_date: monthDay(d, year - 10) });
    const { row, handle } = await automation(
      { event_type: 'anniversary', milestone_rules: JSON.stringify([{ after_years: 10, messages: ['Ten years!'] }]) },
      [{ role: 'milestone', ecard_id: milestoneCard.id, milestone_index: 0 }],
    );
    await fire(handle);
    expect(mailsTo(0).map((m) => m.subject)).to.deep.equal(['For First0 Last0: 3rd year']);
    expect(mailsTo(1).map((m) => m.subject)).to.deep.equal(['Milestone 10 (10th)']);
    expect(mailsTo(1)[0]!.html).to.contain('Ten years!');
    const rows = await rowsOf(row.id);
    expect(rows.map((r) => [r.years, r.milestone_index, r.ecard_id, r.message])).to.deep.equal([
      [3, null, ecardId, 'Many happy returns!'],
      [10, 0, milestoneCard.id, 'Ten years!'],
    ]);
  });

  it('manager, department and segment digests: one per person and type, never about oneself, once across triggers', async () => {
    const d = today();
    const widget = await insertWidget(models, account.accountId);
    const digestCard = async (label: string) => {
      const card = await insertEcard(models, account.accountId, widget.id);
      await models.Ecard.update(
        { email_subject: `${label} for {{recipient_name}}`, details: '<ul>{{#each celebrants}}<li>{{name}}|{{event}}|{{occasion_date}}</li>{{/each}}</ul>' },
        { where: { id: card.id } },
      );
      return card.id;
    };
    const [managerCard, departmentCard, segmentCard] = [await digestCard('Manager'), await digestCard('Department'), await digestCard('Segment')];
    const boss = await member(0);
    const sales = await models.Department.create({ account_id: account.accountId, name: 'Sales', name_key: 'sales' });
    const a = await member(1, { ...bornOn(d), manager_id: boss.id });
    const b = await member(2, { ...bornOn(d), manager_id: boss.id });
    const c = await member(3);
    const s = await member(4);
    const gone = await member(5, { disabled: true });
    for (const m of [a, b, c, gone]) await models.MemberDepartment.create({ member_id: m.id, department_id: sales.id });
    const { row, handle } = await automation(
      { notification_segment: JSON.stringify({ member_ids: [s.id, a.id], department_ids: [] }) },
      [{ role: 'manager', ecard_id: managerCard }, { role: 'department', ecard_id: departmentCard }, { role: 'segment', ecard_id: segmentCard }],
    );
    await fire(handle);
    await fire(handle);
    const listed = (i: number, label: string) =>
      mailsTo(i).filter((m) => m.subject.startsWith(label)).map((m) => [...m.html.matchAll(/<li>([^<]*)<\/li>/g)].map((x) => x[1]));
    const entry = (i: number) => `First${i} Last${i}|birthday|${d}`;
    expect(listed(0, 'Manager')).to.deep.equal([[entry(1), entry(2)]]);
    expect(listed(1, 'Department')).to.deep.equal([[entry(2)]]);
    expect(listed(2, 'Department')).to.deep.equal([[entry(1)]]);
    expect(listed(3, 'Department')).to.deep.equal([[entry(1), entry(2)]]);
    expect(listed(4, 'Segment')).to.deep.equal([[entry(1), entry(2)]]);
    expect(listed(1, 'Segment')).to.deep.equal([[entry(2)]]);
    expect(mailsTo(5)).to.deep.equal([]);
    // Each celebrant's own card too, once.
    expect(mailsTo(1).filter((m) => m.subject.startsWith('For'))).to.have.length(1);
    const digests = (await rowsOf(row.id)).filter((r) => r.kind === 'digest');
    expect(digests.map((r) => [r.member_id, r.occurrence_key, r.status]).sort()).to.deep.equal(
      [
        [boss.id, `manager:${d}`, 'sent'],
        [a.id, `department:${d}`, 'sent'],
        [b.id, `department:${d}`, 'sent'],
        [c.id, `department:${d}`, 'sent'],
        [s.id, `segment:${d}`, 'sent'],
        [a.id, `segment:${d}`, 'sent'],
      ].sort(),
    );
  });

  it('a member deactivated between finding and claiming is skipped; a suppressed address too', async () => {
    const d = today();
    const m0 = await member(0, bornOn(d));
    const m1 = await member(1, bornOn(d));
    const m2 = await member(2, bornOn(d));
    // Enabled, but its Schedule never fires here: the rows are made as the find-due step would, then claimed.
    const { row } = await automation();
    const made = await models.AutomationSend.bulkCreate([m0, m1, m2].map((m) => ({
      automation_id: row.id, account_id: account.accountId, member_id: m.id, occurrence_key: d.slice(0, 4), firing_date: d, occasion_date: m.date_of_birth, send_date: d,
    })));
    await m1.update({ disabled: true });
    await models.Suppression.create({ account_id: account.accountId, kind: 'email', value: `m2@${domain}`, created_at: new Date() });
    const counts = await sendAutomationBatch(services, { accountId: account.accountId, automationId: row.id, firingDate: d, afterId: 0, throughId: made[2]!.id }, { lastTry: false, heartbeat: () => undefined });
    expect(counts).to.deep.equal({ sent: 1, failed: 0, unknown: 0, skipped: 2 });
    expect((await rowsOf(row.id)).map((r) => [r.status, r.reason])).to.deep.equal([['sent', null], ['skipped', 'inactive'], ['skipped', 'suppressed']]);
    expect(mailsTo(0)).to.have.length(1);
    expect(mailsTo(1)).to.have.length(0);
    expect(mailsTo(2)).to.have.length(0);
  });

  it('quota: refused cards fail (wouldexceedlimit) and the owner is emailed once a day per automation', async () => {
    const free = await newAccount(models, 'free');
    const widget = await insertWidget(models, free.accountId);
    const card = await insertEcard(models, free.accountId, widget.id);
    const d = today();
    account = free;
    for (let i = 0; i < 5; i++) await member(i, bornOn(d));
    const first = await automation({ account_id: free.accountId }, [], card.id);
    const [result] = await fire(first.handle);
    expect(result!.counts).to.deep.equal({ sent: 3, failed: 2, unknown: 0, skipped: 0 });
    const rows = await rowsOf(first.row.id);
    expect(rows.filter((r) => r.status === 'failed').map((r) => r.reason)).to.deep.equal(['wouldexceedlimit', 'wouldexceedlimit']);
    expect(rows.filter((r) => r.status === 'failed').map((r) => r.quota_month)).to.deep.equal([null, null]);
    expect(smtp.messages.filter((m) => m.to[0]?.endsWith(`@${domain}`))).to.have.length(3);
    const used = await models.QuotaUsage.findAll({ where: { account_id: free.accountId } });
    expect(used.map((u) => u.used)).to.deep.equal([3]);

    // Another card of the same automation refused the same day: no second notice. Another automation: its own.
    const extra = await member(9, bornOn(d));
    await models.AutomationSend.create({ automation_id: first.row.id, account_id: free.accountId, member_id: extra.id, occurrence_key: d.slice(0, 4), firing_date: d });
    await fire(first.handle);
    const second = await automation({ account_id: free.accountId, automation_name: 'Second' }, [], card.id);
    await fire(second.handle);
    expect((await rowsOf(second.row.id)).map((r) => r.reason)).to.deep.equal(Array(6).fill('wouldexceedlimit'));
    const notices = await models.MailMessage.findAll({ where: { account_id: free.accountId, kind: 'automation_quota' }, order: [['id', 'ASC']] });
    expect(notices.map((n) => n.subject)).to.deep.equal([
      'Automation "Birthdays" could not send: monthly email limit reached',
      'Automation "Second" could not send: monthly email limit reached',
    ]);
    expect(notices[0]!.recipient).to.match(/^owner-/);
    expect((await models.Automation.findByPk(first.row.id))!.quota_notice_on).to.equal(localDateOf(new Date(), zone));
    expect(await models.AutomationSend.count({ where: { automation_id: first.row.id, status: { [Op.ne]: 'sent' } } })).to.equal(3);
  });
});
