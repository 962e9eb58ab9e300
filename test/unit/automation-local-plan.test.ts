import { expect } from 'chai';
import { planFiringCards } from '../../services/automations/local-plan.ts';

const night = { start: '22:00', end: '07:00' };
const tokyo = { id: 1, timezone: 'Asia/Tokyo' };
const berlin = { id: 2, timezone: 'Europe/Berlin' };
const denver = { id: 3, timezone: 'America/Denver' };
const nowhere = { id: 4, timezone: null };
const members = [tokyo, berlin, denver, nowhere];
const sent = (plan: ReturnType<typeof planFiringCards<(typeof members)[number]>>) =>
  plan.cards.map((c) => ({ id: c.member.id, zone: c.zone, at: c.sendAt.toISOString() }));

describe('the local-time plan of an automation firing (pure)', () => {
  it('sends a zone firing to the members of its zone only, a member without a zone counting in the automation’s', () => {
    const timing = { send_time: '09:00', timezone: 'Europe/Berlin', recipient_timezone: true };
    const input = { members, timing, firingDate: '2026-11-27', quiet: null };
    expect(sent(planFiringCards({ ...input, firingZone: 'Asia/Tokyo' }))).to.deep.equal([{ id: 1, zone: 'Asia/Tokyo', at: '2026-11-27T00:00:00.000Z' }]);
    expect(sent(planFiringCards({ ...input, firingZone: 'Europe/Berlin' }))).to.deep.equal([
      { id: 2, zone: 'Europe/Berlin', at: '2026-11-27T08:00:00.000Z' },
      { id: 4, zone: 'Europe/Berlin', at: '2026-11-27T08:00:00.000Z' },
    ]);
    expect(sent(planFiringCards({ ...input, firingZone: 'America/Denver' }))).to.deep.equal([{ id: 3, zone: 'America/Denver', at: '2026-11-27T16:00:00.000Z' }]);
  });

  it('without recipient_timezone sends everyone at the automation’s instant, quiet hours delaying (never dropping) a card', () => {
    const timing = { send_time: '09:00', timezone: 'Europe/Berlin' };
    const plan = planFiringCards({ members, timing, firingDate: '2026-11-27', firingZone: null, quiet: night });
    expect(plan.at.toISOString()).to.equal('2026-11-27T08:00:00.000Z');
    // 09:00 in Berlin is 17:00 in Tokyo and 01:00 in Denver: Denver's card waits for 07:00 there (14:00Z).
    expect(sent(plan)).to.deep.equal([
      { id: 1, zone: 'Asia/Tokyo', at: '2026-11-27T08:00:00.000Z' },
      { id: 2, zone: 'Europe/Berlin', at: '2026-11-27T08:00:00.000Z' },
      { id: 3, zone: 'America/Denver', at: '2026-11-27T14:00:00.000Z' },
      { id: 4, zone: 'Europe/Berlin', at: '2026-11-27T08:00:00.000Z' },
    ]);
  });

  it('moves a send_time in the spring-forward gap forward by the gap (02:30 in Denver on 8 March 2026 → 03:30 MDT)', () => {
    const timing = { send_time: '02:30', timezone: 'UTC', recipient_timezone: true };
    const plan = planFiringCards({ members, timing, firingDate: '2026-03-08', firingZone: 'America/Denver', quiet: null });
    expect(plan.at.toISOString()).to.equal('2026-03-08T09:30:00.000Z');
    expect(sent(plan)).to.deep.equal([{ id: 3, zone: 'America/Denver', at: '2026-03-08T09:30:00.000Z' }]);
    // The day before and after, 02:30 exists: MST (UTC-7) before, MDT (UTC-6) after.
    expect(planFiringCards({ members, timing, firingDate: '2026-03-07', firingZone: 'America/Denver', quiet: null }).at.toISOString()).to.equal('2026-03-07T09:30:00.000Z');
    expect(planFiringCards({ members, timing, firingDate: '2026-03-09', firingZone: 'America/Denver', quiet: null }).at.toISOString()).to.equal('2026-03-09T08:30:00.000Z');
  });

  it('takes the first of the two 01:30s on the fall-back day (1 November 2026 in Denver → 01:30 MDT)', () => {
    const timing = { send_time: '01:30', timezone: 'UTC', recipient_timezone: true };
    const plan = planFiringCards({ members, timing, firingDate: '2026-11-01', firingZone: 'America/Denver', quiet: null });
    expect(plan.at.toISOString()).to.equal('2026-11-01T07:30:00.000Z');
    expect(planFiringCards({ members, timing, firingDate: '2026-11-02', firingZone: 'America/Denver', quiet: null }).at.toISOString()).to.equal('2026-11-02T08:30:00.000Z');
  });

  it('delays a card whose firing falls in quiet hours across a DST change to the window’s end that local morning', () => {
    // An automation in UTC at 08:00 on 8 March 2026: 01:00 MST in Denver, inside 22:00-07:00; 07:00 is MDT by then (13:00Z).
    const timing = { send_time: '08:00', timezone: 'UTC' };
    const plan = planFiringCards({ members: [denver], timing, firingDate: '2026-03-08', firingZone: null, quiet: night });
    expect(sent(plan)).to.deep.equal([{ id: 3, zone: 'America/Denver', at: '2026-03-08T13:00:00.000Z' }]);
  });

  it('uses the firing’s own moment when one is given (a start by hand), still after quiet hours', () => {
    const timing = { send_time: '09:00', timezone: 'Europe/Berlin' };
    const at = new Date('2026-11-27T12:30:00Z');
    const plan = planFiringCards({ members: [berlin, denver], timing, firingDate: '2026-11-27', firingZone: null, quiet: night, at });
    expect(sent(plan)).to.deep.equal([
      { id: 2, zone: 'Europe/Berlin', at: '2026-11-27T12:30:00.000Z' },
      { id: 3, zone: 'America/Denver', at: '2026-11-27T14:00:00.000Z' },
    ]);
  });
});
