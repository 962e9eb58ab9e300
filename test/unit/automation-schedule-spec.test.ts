import { expect } from 'chai';
import { periodicPass } from '../../lib/background.ts';
import {
  automationScheduleOptions, automationScheduleUpdate, CATCHUP_WINDOW_MS, PAUSED_DISABLED, PAUSED_NO_TIMING, RUNNING,
  scheduleMatches, scheduleZones, timingOf, type AutomationScheduleRow, type ScheduleShape,
} from '../../workflows/automation/schedule-spec.ts';
import { automationFanOutWorkflowId, automationScheduleId, parseAutomationScheduleId } from '../../workflows/automation/contract.ts';

const row = (fields: Partial<AutomationScheduleRow> = {}): AutomationScheduleRow => ({
  id: 7,
  account_id: 3,
  enabled: true,
  timing_config: JSON.stringify({ send_time: '09:05', timezone: 'Pacific/Auckland', days_before: 2 }),
  ...fields,
});

// As Temporal describes a calendar: one range per field.
const described = (hour: number, minute: number, timezone: string | undefined, paused: boolean): ScheduleShape => ({
  spec: { calendars: [{ hour: [{ start: hour, end: hour }], minute: [{ start: minute, end: 0 }] }], intervals: [], timezone },
  action: { workflowType: 'automationFiringWorkflow' },
  state: { paused },
});

describe('automation Schedules per zone (recipient_timezone, pure)', () => {
  const zoned = (fields: Partial<AutomationScheduleRow> = {}) =>
    row({ timing_config: JSON.stringify({ send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true }), ...fields });

  it('fires in each zone in use and the automation’s own; one Schedule when off, disabled or without a timing', () => {
    expect(scheduleZones(zoned(), ['Asia/Tokyo', 'America/Denver', 'Asia/Tokyo'])).to.deep.equal(['America/Denver', 'Asia/Tokyo', 'Europe/Berlin']);
    expect(scheduleZones(zoned(), [])).to.deep.equal(['Europe/Berlin']);
    expect(scheduleZones(row(), ['Asia/Tokyo'])).to.deep.equal([null]);
    expect(scheduleZones(zoned({ enabled: false }), ['Asia/Tokyo'])).to.deep.equal([null]);
    expect(scheduleZones(zoned({ timing_config: JSON.stringify({ recipient_timezone: true }) }), ['Asia/Tokyo'])).to.deep.equal([null]);
  });

  it('names a zone’s Schedule `automation/<account>/<id>/<zone>`, fires it at send_time there with the zone in its input', () => {
    const options = automationScheduleOptions(zoned(), 'q', 'America/Denver');
    expect(options.scheduleId).to.equal('automation/3/7/America/Denver');
    expect(options.spec).to.deep.equal({ calendars: [{ hour: 9, minute: 0, comment: 'send_time' }], timezone: 'America/Denver' });
    expect(options.action.args).to.deep.equal([{ accountId: 3, automationId: 7, zone: 'America/Denver' }]);
    expect(options.action.workflowId).to.equal('automation/3/7/America/Denver');
    expect(scheduleMatches(zoned(), described(9, 0, 'America/Denver', false), 'America/Denver')).to.equal(true);
    expect(scheduleMatches(zoned(), described(9, 0, 'Europe/Berlin', false), 'America/Denver')).to.equal(false);
    expect(parseAutomationScheduleId('automation/3/7/America/Argentina/Buenos_Aires')).to.deep.equal({ accountId: 3, automationId: 7, zone: 'America/Argentina/Buenos_Aires' });
    expect(parseAutomationScheduleId('automation/3/7')).to.deep.equal({ accountId: 3, automationId: 7, zone: null });
    expect(automationScheduleId(3, 7)).to.equal('automation/3/7');
    expect(automationFanOutWorkflowId(3, 7, '2026-11-27', 'Asia/Tokyo')).to.equal('automation-firing/3/7/2026-11-27/Asia/Tokyo');
    expect(automationFanOutWorkflowId(3, 7, '2026-11-27')).to.equal('automation-firing/3/7/2026-11-27');
  });
});

describe('automation Schedule options (pure)', () => {
  it('reads send_time and timezone; unset, malformed or out of range is no timing', () => {
    expect(timingOf(row().timing_config)).to.deep.equal({ hour: 9, minute: 5, timezone: 'Pacific/Auckland', recipientTimezone: false });
    expect(timingOf(JSON.stringify({ send_time: '23:59', timezone: 'UTC' }))).to.deep.equal({ hour: 23, minute: 59, timezone: 'UTC', recipientTimezone: false });
    expect(timingOf(JSON.stringify({ send_time: '23:59', timezone: 'UTC', recipient_timezone: true }))).to.deep.equal({ hour: 23, minute: 59, timezone: 'UTC', recipientTimezone: true });
    for (const text of [null, '', '{', 'null', '{}', '{"send_time":"24:00","timezone":"UTC"}', '{"send_time":"9:05","timezone":"UTC"}', '{"send_time":"09:05"}', '{"send_time":"09:05","timezone":""}']) {
      expect(timingOf(text), String(text)).to.equal(null);
    }
  });

  it('an enabled automation: a calendar at send_time in its zone, SKIP, a day of catch-up, running', () => {
    const options = automationScheduleOptions(row(), 'cardsvc');
    expect(options).to.deep.include({
      scheduleId: 'automation/3/7',
      spec: { calendars: [{ hour: 9, minute: 5, comment: 'send_time' }], timezone: 'Pacific/Auckland' },
      policies: { overlap: 'SKIP', catchupWindow: CATCHUP_WINDOW_MS },
      state: { paused: false, note: RUNNING },
    });
    expect(CATCHUP_WINDOW_MS).to.equal(24 * 3600 * 1000);
    expect(options.action).to.deep.include({
      type: 'startWorkflow',
      workflowType: 'automationFiringWorkflow',
      workflowId: 'automation/3/7',
      taskQueue: 'cardsvc',
      args: [{ accountId: 3, automationId: 7 }],
    });
    expect(options.action.typedSearchAttributes.map((pair) => [pair.key.name, pair.value])).to.deep.equal([
      ['CardAccountId', '3'],
      ['CardKind', 'automation'],
      ['CardStatus', 'firing'],
    ]);
    expect(automationScheduleUpdate(row(), 'cardsvc')).to.not.have.property('scheduleId');
  });

  it('paused while disabled, and while there is no timing (no calendar then), each saying why', () => {
    expect(automationScheduleOptions(row({ enabled: false }), 'q').state).to.deep.equal({ paused: true, note: PAUSED_DISABLED });
    const untimed = automationScheduleOptions(row({ timing_config: null }), 'q');
    expect(untimed.spec).to.deep.equal({});
    expect(untimed.state).to.deep.equal({ paused: true, note: PAUSED_NO_TIMING });
    expect(automationScheduleOptions(row({ enabled: false, timing_config: null }), 'q').state.note).to.equal(PAUSED_NO_TIMING);
  });

  it('matches a described Schedule only when calendar, zone, paused state and workflow agree', () => {
    expect(scheduleMatches(row(), described(9, 5, 'Pacific/Auckland', false))).to.equal(true);
    expect(scheduleMatches(row({ enabled: false }), described(9, 5, 'Pacific/Auckland', true))).to.equal(true);
    expect(scheduleMatches(row({ enabled: false }), described(9, 5, 'Pacific/Auckland', false))).to.equal(false);
    expect(scheduleMatches(row(), described(9, 5, 'Pacific/Auckland', true))).to.equal(false);
    expect(scheduleMatches(row(), described(10, 5, 'Pacific/Auckland', false))).to.equal(false);
    expect(scheduleMatches(row(), described(9, 6, 'Pacific/Auckland', false))).to.equal(false);
    expect(scheduleMatches(row(), described(9, 5, 'UTC', false))).to.equal(false);
    expect(scheduleMatches(row({ timing_config: '{"send_time":"09:05","timezone":"UTC"}' }), described(9, 5, undefined, false))).to.equal(true);
    expect(scheduleMatches(row(), { ...described(9, 5, 'Pacific/Auckland', false), action: { workflowType: 'other' } })).to.equal(false);
    const twoCalendars = described(9, 5, 'Pacific/Auckland', false);
    twoCalendars.spec!.calendars = [...twoCalendars.spec!.calendars!, ...twoCalendars.spec!.calendars!];
    expect(scheduleMatches(row(), twoCalendars)).to.equal(false);
    expect(scheduleMatches(row(), { ...described(9, 5, 'Pacific/Auckland', false), spec: { ...described(9, 5, 'Pacific/Auckland', false).spec, intervals: [{}] } })).to.equal(false);
    const range = described(9, 5, 'Pacific/Auckland', false);
    range.spec!.calendars = [{ hour: [{ start: 9, end: 11 }], minute: [{ start: 5, end: 5 }] }];
    expect(scheduleMatches(row(), range)).to.equal(false);
    // No timing: no calendar, paused.
    expect(scheduleMatches(row({ timing_config: null }), { spec: { calendars: [] }, state: { paused: true } })).to.equal(true);
    expect(scheduleMatches(row({ timing_config: null }), { state: { paused: true } })).to.equal(true);
    expect(scheduleMatches(row({ timing_config: null }), described(9, 5, 'UTC', true))).to.equal(false);
  });
});

describe('periodicPass', () => {
  it('runs at the first sweep, then at most once per interval; a run that says "more" is followed at once', async () => {
    let now = 0;
    let runs = 0;
    let more = false;
    const run = () => {
      runs += 1;
      return Promise.resolve(more);
    };
    const pass = periodicPass({ name: 'p', run }, 1000, () => now);
    expect(await pass.run()).to.equal(false);
    now = 999;
    await pass.run();
    expect(runs).to.equal(1);
    now = 1000;
    await pass.run();
    expect(runs).to.equal(2);
    more = true;
    now = 2000;
    expect(await pass.run()).to.equal(true);
    now = 2001;
    more = false;
    await pass.run();
    expect(runs).to.equal(4);
    await pass.run();
    expect(runs).to.equal(4);
    expect(pass.name).to.equal('p');
  });

  it('a failed run waits for the next interval', async () => {
    let now = 0;
    let runs = 0;
    const pass = periodicPass({ name: 'p', run: () => { runs += 1; return Promise.reject(new Error('down')); } }, 1000, () => now);
    await pass.run().catch(() => undefined);
    now = 500;
    expect(await pass.run()).to.equal(false);
    expect(runs).to.equal(1);
  });
});
