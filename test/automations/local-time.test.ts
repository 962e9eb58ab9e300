// Automations at each recipient's local time (issue 34) with real parts: a stack whose service clock the test moves
// (TEST_CLOCK), the suite's Temporal dev server (Schedules, firings, real timers of whole seconds), the test SMTP
// server. Members in Tokyo, Berlin and Denver with a birthday on the same date each get their card at 09:00 there;
// quiet hours hold a card until they end; zone Schedules follow members' zones; a send_time in quiet hours is 422.
import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import { expect } from 'chai';
import { updateAccountSettings } from '../../services/account-settings.ts';
import { sendInstant } from '../../services/automations/local-date.ts';
import { reconcileAutomationSchedules } from '../../services/automations/reconcile.ts';
import { AUTOMATION_FIRING_WORKFLOW, automationScheduleId, type AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { wakeSignal } from '../../workflows/shared/wake.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testClockStack, type ClockStack } from '../helpers/clock.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { maybeRecordHistory } from '../helpers/histories.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';

type Json = Record<string, unknown>;
const DAY = 86_400_000;
const ZONES = ['Asia/Tokyo', 'Europe/Berlin', 'America/Denver'] as const;

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('automations at each recipient’s local time', function () {
  this.timeout(180_000);
  let stack: ClockStack;
  let smtp: SmtpTestServer;
  let client: Client;
  let account: TestAccount;
  let ecardId: number;
  let domain: string;
  let counter = 0;

  before(async () => {
    smtp = await testSmtpServer();
    stack = await testClockStack();
    client = stack.services.workflows!.client;
  });
  after(() => stack.stop());
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    domain = `local${process.pid}-${++counter}.example.com`;
    const widget = await insertWidget(stack.models, account.accountId);
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
    await stack.models.Ecard.update({ email_subject: 'For {{recipient_name}}', details: '<p>On {{occasion_date}}</p>' }, { where: { id: ecardId } });
  });

  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = (automation: Json) => api('POST', '/automation/save', { automation });
  const member = (name: string, timezone: string | null, birthday: string | null) =>
    stack.models.TeamMember.create({
      account_id: account.accountId, email: `${name}@${domain}`, employee_id: null, first_name: name, last_name: 'Lee', job_position: null,
      date_of_birth: birthday ? `1990-${birthday.slice(5)}` : null, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, timezone,
    });
  const birthdays = (timing: Json, enabled = true): Json => ({
    automation_name: 'Birthdays', event_type: 'birthday', from_email: 'people@example.com', selected_ecard_ids: [ecardId],
    random_messages: ['Happy birthday!'], timing_config: timing, enabled,
  });
  const scheduleExists = async (id: string) => {
    try {
      await client.schedule.getHandle(id).describe();
      return true;
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return false;
      throw err;
    }
  };
  const schedulesOf = async (automationId: number) => {
    const ids = [null, ...ZONES, 'Europe/Lisbon'].map((z) => automationScheduleId(account.accountId, automationId, z));
    const present: string[] = [];
    for (const id of ids) if (await scheduleExists(id)) present.push(id);
    onSuiteEnd(async () => {
      for (const id of ids) await client.schedule.getHandle(id).delete().catch(() => undefined);
    });
    return present;
  };
  /** Moves the service clock to `at` (forward only) and returns how far it moved. */
  const moveClockTo = async (at: Date) => {
    const now = await stack.services.clock.read();
    expect(at.getTime(), 'the clock only moves forward').to.be.at.least(now.getTime());
    await stack.advance(at.getTime() - now.getTime());
    await stack.services.clock.read();
  };
  const startFiring = (automationId: number, scheduledAt: Date, zone?: string) =>
    client.workflow.start(AUTOMATION_FIRING_WORKFLOW, {
      taskQueue: stack.taskQueue,
      workflowId: `local-time-${automationId}-${zone ?? 'one'}-${crypto.randomUUID()}`,
      args: [{ accountId: account.accountId, automationId, scheduledAt: scheduledAt.toISOString(), ...(zone ? { zone } : {}) }],
    });
  const mailsTo = (name: string) => smtp.to(`${name}@${domain}`);

  it('recipient_timezone: saved and shown; one Schedule per zone in use, following members’ zones and the flag', async () => {
    await member('tokyo', 'Asia/Tokyo', null);
    await member('nowhere', null, null);
    const created = expectSuccess(await save(birthdays({ send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true }))) as Json;
    const id = created.id as number;
    expect(created.timing_config).to.deep.equal({ send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true });
    expect(((expectSuccess(await api('GET', `/automation/findOne/id/${id}`)) as Json).timing_config as Json).recipient_timezone).to.equal(true);
    // The automation's zone (members without one) and Tokyo; no Schedule of its own.
    expect(await schedulesOf(id)).to.deep.equal(['Asia/Tokyo', 'Europe/Berlin'].map((z) => automationScheduleId(account.accountId, id, z)));
    const tokyo = await client.schedule.getHandle(automationScheduleId(account.accountId, id, 'Asia/Tokyo')).describe();
    expect(tokyo.spec.timezone).to.equal('Asia/Tokyo');
    expect(tokyo.spec.calendars?.[0]).to.deep.include({ hour: [{ start: 9, end: 9, step: 1 }], minute: [{ start: 0, end: 0, step: 1 }] });
    expect(tokyo.action).to.deep.include({ workflowType: AUTOMATION_FIRING_WORKFLOW });
    expect((tokyo.action as { args: unknown[] }).args).to.deep.equal([{ accountId: account.accountId, automationId: id, zone: 'Asia/Tokyo' }]);
    const watermarks = async () => (await stack.models.AutomationZoneWatermark.findAll({ where: { automation_id: id }, order: [['zone', 'ASC']] })).map((w) => w.zone);
    expect(await watermarks()).to.deep.equal(['Asia/Tokyo', 'Europe/Berlin']);

    // A member comes to Denver: the reconciler adds its Schedule; Tokyo's last member leaves: its Schedule goes.
    const denver = await member('denver', 'America/Denver', null);
    await stack.models.TeamMember.update({ disabled: true }, { where: { account_id: account.accountId, email: `tokyo@${domain}` } });
    // The pass covers every automation of the suite's database; what matters here is this one's Schedules.
    await reconcileAutomationSchedules(stack.services);
    expect(await schedulesOf(id)).to.deep.equal(['Europe/Berlin', 'America/Denver'].map((z) => automationScheduleId(account.accountId, id, z)));
    expect(await watermarks()).to.deep.equal(['America/Denver', 'Europe/Berlin']);
    // A second pass finds nothing to do.
    await reconcileAutomationSchedules(stack.services);
    expect(await schedulesOf(id)).to.have.length(2);

    // The flag off: back to the one Schedule, in the automation's zone; on again: the zones.
    expectSuccess(await save({ id, timing_config: { send_time: '09:00', timezone: 'Europe/Berlin' } }));
    expect(await schedulesOf(id)).to.deep.equal([automationScheduleId(account.accountId, id)]);
    expect(await watermarks()).to.deep.equal([]);
    expectSuccess(await save({ id, timing_config: { send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: 1 } }));
    expect(await schedulesOf(id)).to.have.length(2);
    // Disabled: one paused Schedule, as any automation; deleted (console), every Schedule goes.
    expectSuccess(await api('POST', '/automation/toggle', { automation: { id, enabled: false } }));
    expect(await schedulesOf(id)).to.deep.equal([automationScheduleId(account.accountId, id)]);
    expectSuccess(await api('POST', '/automation/toggle', { automation: { id, enabled: true } }));
    expect(await schedulesOf(id)).to.have.length(2);
    const { deleteAutomation } = await import('../../services/automations/delete.ts');
    await deleteAutomation(stack.services, account.accountId, id);
    expect(await schedulesOf(id)).to.deep.equal([]);
    expect(denver.id).to.be.a('number');
  });

  it('a send_time inside the account’s quiet hours is 422 on create and on update, nothing written', async () => {
    await updateAccountSettings(stack.services, account.accountId, { quiet_hours: { start: '22:00', end: '07:00' } });
    const before = await stack.models.Automation.count({ where: { account_id: account.accountId } });
    const messages = expectFailure(await save(birthdays({ send_time: '06:30', timezone: 'Europe/Berlin' }, false)), 422, 'invalid_value');
    expect(messages[0]).to.contain('timing_config.send_time 06:30').and.contain('quiet hours (22:00-07:00)');
    expectFailure(await save(birthdays({ send_time: '22:00', timezone: 'UTC', recipient_timezone: true }, false)), 422, 'invalid_value');
    expect(await stack.models.Automation.count({ where: { account_id: account.accountId } })).to.equal(before);
    const id = (expectSuccess(await save(birthdays({ send_time: '07:00', timezone: 'Europe/Berlin' }, false))) as Json).id as number;
    expectFailure(await save({ id, timing_config: { send_time: '23:59', timezone: 'Europe/Berlin' } }), 422, 'invalid_value');
    expect(JSON.parse((await stack.models.Automation.findByPk(id))!.timing_config!)).to.deep.equal({ send_time: '07:00', timezone: 'Europe/Berlin' });
  });

  it('members in Tokyo, Berlin and Denver get their birthday card at 09:00 their time; a member without a zone at the automation’s', async () => {
    // U: a UTC date two days ahead of the service clock; 09:00 on U is 00:00Z in Tokyo, 08:00Z (CET) or 07:00Z in Berlin, 16:00Z or 15:00Z in Denver.
    const start = await stack.services.clock.read();
    const u = new Date(start.getTime() + 2 * DAY).toISOString().slice(0, 10);
    const at = Object.fromEntries(ZONES.map((z) => [z, sendInstant(u, '09:00', z)])) as Record<(typeof ZONES)[number], Date>;
    await member('tokyo', 'Asia/Tokyo', u);
    await member('berlin', 'Europe/Berlin', u);
    await member('denver', 'America/Denver', u);
    await member('nowhere', null, u);
    await member('tomorrow', 'Asia/Tokyo', `1990-${new Date(Date.parse(u) + DAY).toISOString().slice(5, 10)}`);
    await moveClockTo(new Date(at['Asia/Tokyo'].getTime() - 3600_000));
    const id = (expectSuccess(await save(birthdays({ send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true }))) as Json).id as number;
    await schedulesOf(id);

    // Each zone's firing for U starts early (a Schedule would start it at 09:00 there) and waits on the service clock.
    const firings = Object.fromEntries(await Promise.all(ZONES.map(async (z) => [z, await startFiring(id, at[z], z)]))) as Record<string, Awaited<ReturnType<typeof startFiring>>>;
    const rows = () => stack.models.AutomationSend.findAll({ where: { automation_id: id }, order: [['member_id', 'ASC']] });
    await until('each zone’s rows', async () => (await rows()).length === 4);
    const planned = (await rows()).map((r) => [r.zone, r.status, r.send_at?.toISOString()]);
    expect(planned).to.deep.equal([
      ['Asia/Tokyo', 'pending', at['Asia/Tokyo'].toISOString()],
      ['Europe/Berlin', 'pending', at['Europe/Berlin'].toISOString()],
      ['America/Denver', 'pending', at['America/Denver'].toISOString()],
      ['Europe/Berlin', 'pending', at['Europe/Berlin'].toISOString()],
    ]);
    const wakeAll = () => Promise.all(Object.values(firings).map((f) => f.signal(wakeSignal).catch(() => undefined)));
    const arrivals: Array<{ name: string; clock: number }> = [];
    const stop = smtp.onMessage(async (mail) => {
      const name = mail.to[0]!.split('@')[0]!;
      if (mail.to[0]!.endsWith(`@${domain}`)) arrivals.push({ name, clock: (await stack.services.clock.read()).getTime() });
    });
    try {
      for (const [zone, names] of [['Asia/Tokyo', ['tokyo']], ['Europe/Berlin', ['berlin', 'nowhere']], ['America/Denver', ['denver']]] as const) {
        // Two seconds before 09:00 there: the woken firing asks the clock again and waits on a real 2-second timer.
        await moveClockTo(new Date(at[zone].getTime() - 2000));
        await wakeAll();
        await new Promise((r) => setTimeout(r, 700));
        for (const name of names) expect(mailsTo(name), `${name} before its 09:00`).to.have.length(0);
        await until(`${zone}'s cards`, () => names.every((n) => mailsTo(n).length === 1), 15_000);
        const result = (await firings[zone]!.result()) as AutomationFiringResult;
        expect(result).to.deep.include({ status: 'fired', firingDate: u, counts: { sent: names.length, failed: 0, unknown: 0, skipped: 0 } });
      }
    } finally {
      stop();
    }
    // Tokyo first, then Berlin's two (one wave, either order), then Denver: each at its own 09:00.
    expect(arrivals.map((a) => a.name)).to.have.length(4);
    expect([arrivals[0]!.name, [arrivals[1]!.name, arrivals[2]!.name].sort(), arrivals[3]!.name]).to.deep.equal(['tokyo', ['berlin', 'nowhere'], 'denver']);
    for (const a of arrivals) {
      const zone = a.name === 'tokyo' ? 'Asia/Tokyo' : a.name === 'denver' ? 'America/Denver' : 'Europe/Berlin';
      // At or after 09:00 there by the service clock, within the seconds the send takes.
      expect(a.clock - at[zone].getTime(), a.name).to.be.within(0, 15_000);
    }
    for (const name of ['tokyo', 'berlin', 'denver', 'nowhere']) expect(mailsTo(name)[0]!.html, name).to.contain(`On ${u}`);
    expect(mailsTo('tomorrow')).to.have.length(0);
    expect((await rows()).map((r) => r.status)).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
    const held = await stack.models.AutomationZoneWatermark.findAll({ where: { automation_id: id }, order: [['zone', 'ASC']], raw: true });
    expect(held.map((w) => [w.zone, w.watermark])).to.deep.equal([['America/Denver', u], ['Asia/Tokyo', u], ['Europe/Berlin', u]]);
    // Each zone's fan-out is its own child: `automation-firing/<account>/<id>/<U>/<zone>`.
    const children = await Promise.all(ZONES.map((z) => client.workflow.getHandle(`automation-firing/${account.accountId}/${id}/${u}/${z}`).describe()));
    expect(children.map((c) => c.status.name)).to.deep.equal(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    await maybeRecordHistory(client, firings['Europe/Berlin']!.workflowId, 'automation-firing-local-time-workflow');
    await maybeRecordHistory(client, `automation-firing/${account.accountId}/${id}/${u}/Europe/Berlin`, 'automation-fan-out-wave-workflow');
  });

  it('quiet hours hold a card until they end, then send it: 09:00 in Berlin is 01:00 in Denver, sent at 07:00 there', async () => {
    await updateAccountSettings(stack.services, account.accountId, { quiet_hours: { start: '22:00', end: '07:00' } });
    const start = await stack.services.clock.read();
    const u = new Date(start.getTime() + 2 * DAY).toISOString().slice(0, 10);
    const nine = sendInstant(u, '09:00', 'Europe/Berlin');
    const seven = sendInstant(u, '07:00', 'America/Denver');
    await member('berlin', 'Europe/Berlin', u);
    await member('denver', 'America/Denver', u);
    await moveClockTo(new Date(nine.getTime() - 3600_000));
    const id = (expectSuccess(await save(birthdays({ send_time: '09:00', timezone: 'Europe/Berlin' }))) as Json).id as number;
    await schedulesOf(id);
    const firing = await startFiring(id, nine);
    const rows = () => stack.models.AutomationSend.findAll({ where: { automation_id: id }, order: [['member_id', 'ASC']] });
    await until('the rows', async () => (await rows()).length === 2);
    expect((await rows()).map((r) => [r.zone, r.send_at?.toISOString()])).to.deep.equal([[null, nine.toISOString()], [null, seven.toISOString()]]);

    await moveClockTo(new Date(nine.getTime() - 1000));
    await firing.signal(wakeSignal);
    await until('Berlin’s card', () => mailsTo('berlin').length === 1, 15_000);
    expect(mailsTo('denver')).to.have.length(0);
    // An hour later in Denver it is still quiet (02:00): a wake finds the card still held.
    await moveClockTo(new Date(nine.getTime() + 3600_000));
    await firing.signal(wakeSignal);
    await new Promise((r) => setTimeout(r, 1500));
    expect(mailsTo('denver')).to.have.length(0);
    expect((await rows()).map((r) => r.status)).to.deep.equal(['sent', 'pending']);

    await moveClockTo(new Date(seven.getTime() - 1000));
    await firing.signal(wakeSignal);
    await until('Denver’s card at the end of its quiet hours', () => mailsTo('denver').length === 1, 15_000);
    expect((await stack.services.clock.read()).getTime()).to.be.at.least(seven.getTime());
    const result = (await firing.result()) as AutomationFiringResult;
    expect(result).to.deep.include({ status: 'fired', firingDate: u, counts: { sent: 2, failed: 0, unknown: 0, skipped: 0 } });
    expect((await rows()).map((r) => r.status)).to.deep.equal(['sent', 'sent']);
  });
});
