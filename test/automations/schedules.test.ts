import { expect } from 'chai';
import { ScheduleNotFoundError, ScheduleOverlapPolicy, type ScheduleDescription } from '@temporalio/client';
import { createLogger } from '../../lib/logger.ts';
import type { Config } from '../../lib/config.ts';
import type { Services } from '../../app/services.ts';
import { ApiError } from '../../lib/errors.ts';
import type { Automation } from '../../models/Automation.ts';
import { deleteAutomation } from '../../services/automations/delete.ts';
import { reconcileAutomationSchedules } from '../../services/automations/reconcile.ts';
import { CardAccountId, CardKind, CardStatus } from '../../workflows/shared/search-attributes.ts';
import { AUTOMATION_FIRING_WORKFLOW, automationScheduleId } from '../../workflows/automation/contract.ts';
import { listAutomationSchedules } from '../../workflows/automation/lifecycle.ts';
import { deleteAutomationSchedule, syncAutomationSchedule } from '../../services/automations/schedule.ts';
import { PAUSED_DISABLED, PAUSED_NO_TIMING, scheduleMatches } from '../../workflows/automation/schedule-spec.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { freePort } from '../helpers/ports.ts';
import { extraApp, testConfig, testServices, testStack, type TestStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import type { Client } from '@temporalio/client';
import type { TypedSearchAttributes } from '@temporalio/common';

describe('automations: Temporal Schedules (sync, delete, reconciler)', function () {
  this.timeout(90_000);
  let config: Config;
  let services: Services;
  let client: Client;
  let accountId: number;

  before(async () => {
    config = await testConfig();
    services = await testServices(config);
    client = await testClient();
  });
  beforeEach(async () => {
    accountId = (await newAccount(services.models)).accountId;
  });

  const timing = (send_time: string, timezone: string) => JSON.stringify({ send_time, timezone, days_before: 0 });
  const insertAutomation = (fields: Partial<{ enabled: boolean; timing_config: string | null }> = {}, account = accountId) =>
    services.models.Automation.create({
      account_id: account,
      automation_name: 'Birthdays',
      event_type: 'birthday',
      trigger_config: '{}',
      timing_config: timing('09:30', 'Pacific/Auckland'),
      enabled: true,
      ...fields,
    });
  const handleOf = (row: Automation) => client.schedule.getHandle(automationScheduleId(row.account_id, row.id));
  const describe_ = (row: Automation) => handleOf(row).describe();
  const absent = async (row: Automation) => {
    try {
      await describe_(row);
      return false;
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return true;
      throw err;
    }
  };
  const calendarOf = (d: ScheduleDescription) => d.spec.calendars?.map((c) => ({ hour: c.hour[0]!.start, minute: c.minute[0]!.start })) ?? [];

  it('sync creates the Schedule: calendar at send_time in the time zone, SKIP, 1-day catch-up, the firing workflow with its attributes', async () => {
    const row = await insertAutomation();
    await syncAutomationSchedule(services, accountId, row.id);
    const d = await describe_(row);
    expect(d.scheduleId).to.equal(`automation/${accountId}/${row.id}`);
    expect(calendarOf(d)).to.deep.equal([{ hour: 9, minute: 30 }]);
    expect(d.spec.timezone).to.equal('Pacific/Auckland');
    expect(d.policies.overlap).to.equal(ScheduleOverlapPolicy.SKIP);
    expect(d.policies.catchupWindow).to.equal(86_400_000);
    expect(d.state.paused).to.equal(false);
    expect(d.action.workflowType).to.equal(AUTOMATION_FIRING_WORKFLOW);
    expect(d.action.taskQueue).to.equal(config.temporal.taskQueue);
    expect(d.action.args).to.deep.equal([{ accountId, automationId: row.id }]);
    expect(d.action.workflowId).to.equal(`automation/${accountId}/${row.id}`);
    const attributes = d.action.typedSearchAttributes as TypedSearchAttributes;
    expect([attributes.get(CardAccountId), attributes.get(CardKind), attributes.get(CardStatus)]).to.deep.equal([String(accountId), 'automation', 'firing']);
    // The next firing is at 09:30 on the wall clock of Auckland.
    const next = d.info.nextActionTimes[0]!;
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Pacific/Auckland', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(next);
    expect(local).to.equal('09:30');

    // A second sync of the same row changes nothing and does not fail.
    await syncAutomationSchedule(services, accountId, row.id);
    expect(calendarOf(await describe_(row))).to.deep.equal([{ hour: 9, minute: 30 }]);
  });

  it('is paused while disabled (with a note), unpaused when enabled, and follows send_time and timezone edits', async () => {
    const row = await insertAutomation({ enabled: false, timing_config: timing('07:05', 'America/Los_Angeles') });
    await syncAutomationSchedule(services, accountId, row.id);
    let d = await describe_(row);
    expect(d.state).to.deep.include({ paused: true, note: PAUSED_DISABLED });
    expect(calendarOf(d)).to.deep.equal([{ hour: 7, minute: 5 }]);
    expect(d.spec.timezone).to.equal('America/Los_Angeles');

    await row.update({ enabled: true });
    await syncAutomationSchedule(services, accountId, row.id);
    d = await describe_(row);
    expect(d.state.paused).to.equal(false);

    await row.update({ timing_config: timing('18:45', 'Europe/Berlin') });
    await syncAutomationSchedule(services, accountId, row.id);
    d = await describe_(row);
    expect(calendarOf(d)).to.deep.equal([{ hour: 18, minute: 45 }]);
    expect(d.spec.timezone).to.equal('Europe/Berlin');
    expect(d.policies).to.deep.include({ overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 86_400_000 });

    await row.update({ enabled: false });
    await syncAutomationSchedule(services, accountId, row.id);
    expect((await describe_(row)).state).to.deep.include({ paused: true, note: PAUSED_DISABLED });
  });

  it('without a timing the Schedule has no calendar and stays paused, saying why', async () => {
    const row = await insertAutomation({ enabled: false, timing_config: null });
    await syncAutomationSchedule(services, accountId, row.id);
    const d = await describe_(row);
    expect(d.state).to.deep.include({ paused: true, note: PAUSED_NO_TIMING });
    expect(calendarOf(d)).to.deep.equal([]);
    expect(d.info.nextActionTimes).to.deep.equal([]);
  });

  it("sync of an automation that is not the account's (or gone) deletes its Schedule, never another's", async () => {
    const row = await insertAutomation();
    await syncAutomationSchedule(services, accountId, row.id);
    const other = (await newAccount(services.models)).accountId;
    // Another account naming this id touches only `automation/<other>/<id>`, which does not exist.
    await syncAutomationSchedule(services, other, row.id);
    expect(await absent(row)).to.equal(false);
    await deleteAutomationSchedule(services, accountId, row.id);
    expect(await absent(row)).to.equal(true);
    // Deleting what is already gone is fine.
    await deleteAutomationSchedule(services, accountId, row.id);
  });

  it('deleteAutomation removes the row, its eCard references and exactly-once rows, and its Schedule; 404 when not the account\'s', async () => {
    const widget = await insertWidget(services.models, accountId);
    const ecard = await insertEcard(services.models, accountId, widget.id);
    const row = await insertAutomation();
    await services.models.AutomationEcard.create({ automation_id: row.id, account_id: accountId, ecard_id: ecard.id, role: 'selected', milestone_index: null, position: 0 });
    await services.models.AutomationSend.create({ automation_id: row.id, account_id: accountId, member_id: 1, occurrence_key: '2026', firing_date: '2026-11-24' });
    await syncAutomationSchedule(services, accountId, row.id);
    expect(await absent(row)).to.equal(false);

    const other = (await newAccount(services.models)).accountId;
    const refused = await deleteAutomation(services, other, row.id).then(() => undefined, (err: unknown) => err);
    expect(refused).to.be.instanceOf(ApiError);
    expect(refused).to.deep.include({ status: 404, code: 'not_found' });
    expect(await services.models.Automation.count({ where: { id: row.id } })).to.equal(1);
    expect(await absent(row)).to.equal(false);

    await deleteAutomation(services, accountId, row.id);
    expect(await services.models.Automation.count({ where: { id: row.id } })).to.equal(0);
    expect(await services.models.AutomationEcard.count({ where: { automation_id: row.id } })).to.equal(0);
    expect(await services.models.AutomationSend.count({ where: { automation_id: row.id } })).to.equal(0);
    expect(await absent(row)).to.equal(true);
    const again = await deleteAutomation(services, accountId, row.id).then(() => undefined, (err: unknown) => err);
    expect(again).to.deep.include({ status: 404, code: 'not_found' });
  });

  // The list the reconciler reads is eventually consistent: it runs again until the repair shows.
  const reconcileUntil = async (done: () => Promise<boolean>) => {
    const ok = await eventually(
      async () => {
        await reconcileAutomationSchedules(services);
        return done();
      },
      Boolean,
      20_000,
      250,
    );
    expect(ok).to.equal(true);
  };

  it('the reconciler recreates a Schedule removed by hand, repairs one changed by hand, and removes one whose automation is gone', async () => {
    const removed = await insertAutomation();
    const changed = await insertAutomation({ enabled: false, timing_config: timing('06:00', 'UTC') });
    const orphan = await insertAutomation();
    const never = await insertAutomation({ timing_config: timing('12:15', 'Asia/Tokyo') });
    for (const row of [removed, changed, orphan]) await syncAutomationSchedule(services, accountId, row.id);

    await handleOf(removed).delete();
    await handleOf(changed).unpause('by hand');
    await handleOf(changed).update((previous) => ({ ...previous, spec: { calendars: [{ hour: 3 }], timezone: 'UTC' }, state: { paused: false } }));
    await services.models.Automation.destroy({ where: { id: orphan.id } });

    await reconcileUntil(async () => {
      const [r, c, n] = await Promise.all([describe_(removed).catch(() => undefined), describe_(changed), describe_(never).catch(() => undefined)]);
      return !!r && !!n && c.state.paused && calendarOf(c)[0]?.hour === 6 && (await absent(orphan));
    });
    const recreated = await describe_(removed);
    expect(calendarOf(recreated)).to.deep.equal([{ hour: 9, minute: 30 }]);
    expect(recreated.state.paused).to.equal(false);
    const repaired = await describe_(changed);
    expect(repaired.state).to.deep.include({ paused: true, note: PAUSED_DISABLED });
    expect(repaired.spec.timezone).to.equal('UTC');
    const made = await describe_(never);
    expect(calendarOf(made)).to.deep.equal([{ hour: 12, minute: 15 }]);
    expect(made.spec.timezone).to.equal('Asia/Tokyo');
  });

  it('a Schedule that matches its automation is left alone by the reconciler', async () => {
    const row = await insertAutomation();
    await syncAutomationSchedule(services, accountId, row.id);
    const target = services.workflows!;
    const listedMatching = async () => {
      const listed = (await listAutomationSchedules(target)).find((s) => s.automationId === row.id && s.accountId === accountId);
      return !!listed && scheduleMatches(row, listed.summary);
    };
    expect(await eventually(listedMatching, Boolean, 20_000, 200)).to.equal(true);
    const before = (await describe_(row)).info.lastUpdatedAt;
    await reconcileAutomationSchedules(services);
    expect((await describe_(row)).info.lastUpdatedAt?.getTime()).to.equal(before?.getTime());
  });

  it("the worker's background passes run the reconciler at start", async () => {
    const row = await insertAutomation();
    const worker = await testServices(config);
    worker.background.start();
    try {
      const made = await eventually(() => absent(row), (gone) => !gone, 20_000, 200);
      expect(made).to.equal(false);
    } finally {
      await worker.background.stop();
    }
  });

  it('with Temporal unreachable, sync and delete still resolve within their deadline (logged); the row is deleted', async () => {
    const lines: string[] = [];
    const unreachableConfig = await testConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`, LOG_LEVEL: 'warn' });
    const down = await testServices(unreachableConfig, {
      temporalAddress: unreachableConfig.temporal.address,
      logger: createLogger(unreachableConfig, { write: (line: string) => void lines.push(line) }),
    });
    const row = await insertAutomation();
    const started = Date.now();
    await syncAutomationSchedule(down, accountId, row.id);
    expect(Date.now() - started).to.be.below(10_000);
    expect(lines.join('')).to.include("could not sync the automation's Schedule");
    await deleteAutomation(down, accountId, row.id);
    expect(await services.models.Automation.count({ where: { id: row.id } })).to.equal(0);
  });

  it('without a Temporal client (cardsvc) sync is a no-op', async () => {
    const none = await testServices(config, { temporalAddress: undefined });
    const row = await insertAutomation();
    await syncAutomationSchedule(none, accountId, row.id);
    expect(await absent(row)).to.equal(true);
    expect(await reconcileAutomationSchedules(none)).to.deep.equal({ checked: 0, repaired: 0, removed: 0, failed: 0 });
  });
});

describe('automations: the Schedule follows save and toggle over the API', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let client: Client;

  before(async () => {
    stack = await testStack();
    client = await testClient();
  });

  it('save creates it paused (disabled), toggle unpauses and pauses it, a timing edit moves it', async () => {
    const { account, ecard } = await accountWithWidget(stack, { plan: 'pro' });
    const { ok } = apiClient(stack, account.liveKey);
    const saved = await ok<{ id: number }>('POST', '/automation/save', {
      automation: {
        automation_name: 'Birthdays',
        event_type: 'birthday',
        trigger_config: {},
        timing_config: { send_time: '08:15', timezone: 'America/Los_Angeles' },
        from_email: 'hr@example.com',
        selected_ecard_ids: [ecard.id],
        enabled: false,
      },
    });
    const handle = client.schedule.getHandle(automationScheduleId(account.accountId, saved.id));
    let d = await handle.describe();
    expect(d.state).to.deep.include({ paused: true, note: PAUSED_DISABLED });
    expect(d.spec.timezone).to.equal('America/Los_Angeles');
    expect(d.spec.calendars?.map((c) => [c.hour[0]!.start, c.minute[0]!.start])).to.deep.equal([[8, 15]]);

    await ok('POST', '/automation/toggle', { automation: { id: saved.id, enabled: true } });
    expect((await handle.describe()).state.paused).to.equal(false);

    await ok('POST', '/automation/save', { automation: { id: saved.id, timing_config: { send_time: '20:00', timezone: 'Europe/Paris' } } });
    d = await handle.describe();
    expect(d.spec.timezone).to.equal('Europe/Paris');
    expect(d.spec.calendars?.map((c) => [c.hour[0]!.start, c.minute[0]!.start])).to.deep.equal([[20, 0]]);
    expect(d.state.paused).to.equal(false);

    await ok('POST', '/automation/toggle', { automation: { id: saved.id, enabled: false } });
    expect((await handle.describe()).state).to.deep.include({ paused: true, note: PAUSED_DISABLED });
  });

  it('a refused save or toggle changes no Schedule and creates none', async () => {
    const account = await newAccount(stack.models, 'pro');
    const other = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const foreign = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
    const { api } = apiClient(stack, account.liveKey);
    const base = { automation_name: 'Birthdays', event_type: 'birthday', timing_config: { send_time: '08:15', timezone: 'UTC' } };
    const schedulesOf = async (accountId: number) => {
      const ids: string[] = [];
      for await (const s of client.schedule.list()) if (s.scheduleId.startsWith(`automation/${accountId}/`)) ids.push(s.scheduleId);
      return ids;
    };

    expectFailure(await api('POST', '/automation/save', { automation: { ...base, selected_ecard_ids: [foreign.id], enabled: false } }), 404, 'not_found');
    expectFailure(await api('POST', '/automation/save', { automation: { ...base, selected_ecard_ids: [ecard.id], enabled: true } }), 422, 'automation_incomplete');
    expect(await stack.models.Automation.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await schedulesOf(account.accountId)).to.deep.equal([]);

    const saved = expectSuccess(await api('POST', '/automation/save', { automation: { ...base, selected_ecard_ids: [ecard.id], enabled: false } })) as { id: number };
    const handle = client.schedule.getHandle(automationScheduleId(account.accountId, saved.id));
    const before = await handle.describe();
    // No from_email: enabling is refused; another account's key cannot see it.
    expectFailure(await api('POST', '/automation/toggle', { automation: { id: saved.id, enabled: true } }), 422, 'automation_incomplete');
    expectFailure(await api('POST', '/automation/toggle', { automation: { id: saved.id, enabled: true } }, other.liveKey), 404, 'not_found');
    expectFailure(await api('POST', '/automation/save', { automation: { id: saved.id, timing_config: { send_time: '25:00', timezone: 'UTC' } } }), 400, 'invalid_parameter');
    const after = await handle.describe();
    expect(after.state).to.deep.include({ paused: true, note: PAUSED_DISABLED });
    expect(after.info.lastUpdatedAt?.getTime()).to.equal(before.info.lastUpdatedAt?.getTime());
    expect(await schedulesOf(other.accountId)).to.deep.equal([]);
  });

  it('save answers 200 while Temporal is down; the reconciler makes the Schedule once it is back', async () => {
    const { account, ecard } = await accountWithWidget(stack, { plan: 'pro' });
    const down = await extraApp({ env: { TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` } });
    const res = await call(down.url, 'POST', '/v2/api/automation/save', {
      key: account.liveKey,
      body: { automation: { automation_name: 'Offline', event_type: 'birthday', timing_config: { send_time: '07:00', timezone: 'UTC' }, from_email: 'hr@example.com', selected_ecard_ids: [ecard.id], enabled: true } },
    });
    const saved = expectSuccess(res) as { id: number; enabled: boolean };
    expect(saved.enabled).to.equal(true);
    const handle = client.schedule.getHandle(automationScheduleId(account.accountId, saved.id));
    const missing = await handle.describe().then(() => null, (err: unknown) => err);
    expect(missing).to.be.instanceOf(ScheduleNotFoundError);

    await reconcileAutomationSchedules(await testServices(await testConfig()));
    const d = await handle.describe();
    expect(d.state.paused).to.equal(false);
    expect(d.spec.calendars?.map((c) => [c.hour[0]!.start, c.minute[0]!.start])).to.deep.equal([[7, 0]]);
  });
});
