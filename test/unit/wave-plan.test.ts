import { expect } from 'chai';
import { delaysAny, planWaves, recipientZone } from '../../services/campaigns/wave-plan.ts';

const wall = (s: string) => {
  const [date, time] = s.split('T') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return { wall: { year, month, day, hour, minute, second: 0, millisecond: 0 } };
};
const iso = (waves: ReturnType<typeof planWaves>) => waves.map((w) => ({ timezone: w.timezone, send_at: w.sendAt.toISOString(), ids: w.recipientIds }));
const longAgo = new Date('2026-01-01T00:00:00Z');

describe('wave planning (pure)', () => {
  it('groups recipients by zone, each wave at the wall-clock time there, earliest first', () => {
    const recipients = [
      { id: 1, timeZone: 'America/Denver' },
      { id: 2, timeZone: 'Asia/Tokyo' },
      { id: 3, timeZone: 'Europe/Berlin' },
      { id: 4, timeZone: 'Asia/Tokyo' },
    ];
    expect(iso(planWaves(recipients, wall('2026-06-10T09:00'), null, longAgo))).to.deep.equal([
      { timezone: 'Asia/Tokyo', send_at: '2026-06-10T00:00:00.000Z', ids: [2, 4] },
      { timezone: 'Europe/Berlin', send_at: '2026-06-10T07:00:00.000Z', ids: [3] },
      { timezone: 'America/Denver', send_at: '2026-06-10T15:00:00.000Z', ids: [1] },
    ]);
  });

  it('sends a zone whose moment has passed at once', () => {
    const now = new Date('2026-06-10T05:00:00Z'); // 14:00 in Tokyo, 07:00 in Berlin
    const waves = planWaves([{ id: 1, timeZone: 'Asia/Tokyo' }, { id: 2, timeZone: 'Europe/Berlin' }], wall('2026-06-10T09:00'), null, now);
    expect(iso(waves)).to.deep.equal([
      { timezone: 'Asia/Tokyo', send_at: now.toISOString(), ids: [1] },
      { timezone: 'Europe/Berlin', send_at: '2026-06-10T07:00:00.000Z', ids: [2] },
    ]);
  });

  it('reads a wall-clock time in a spring-forward gap as far past the gap as it was into it', () => {
    // Denver, 8 March 2026: 02:00 MST jumps to 03:00 MDT; 02:30 does not exist and is read as 03:30 MDT (09:30Z).
    // Berlin is not in a gap that day: 02:30 CET is 01:30Z.
    const waves = planWaves([{ id: 1, timeZone: 'America/Denver' }, { id: 2, timeZone: 'Europe/Berlin' }], wall('2026-03-08T02:30'), null, longAgo);
    expect(iso(waves)).to.deep.equal([
      { timezone: 'Europe/Berlin', send_at: '2026-03-08T01:30:00.000Z', ids: [2] },
      { timezone: 'America/Denver', send_at: '2026-03-08T09:30:00.000Z', ids: [1] },
    ]);
  });

  it('takes the first of the two wall-clock times in a fall-back overlap', () => {
    // Berlin, 25 October 2026: 03:00 CEST goes back to 02:00 CET; 02:30 happens at 00:30Z and 01:30Z; the first wins.
    const waves = planWaves([{ id: 1, timeZone: 'Europe/Berlin' }], wall('2026-10-25T02:30'), null, longAgo);
    expect(iso(waves)).to.deep.equal([{ timezone: 'Europe/Berlin', send_at: '2026-10-25T00:30:00.000Z', ids: [1] }]);
  });

  it('moves a zone whose moment falls in quiet hours to their end, never dropping it', () => {
    const quiet = { start: '22:00', end: '07:00' };
    // 23:00 wall clock everywhere: each zone waits until 07:00 the next local morning.
    const waves = planWaves([{ id: 1, timeZone: 'Asia/Tokyo' }, { id: 2, timeZone: 'America/Denver' }], wall('2026-06-10T23:00'), quiet, longAgo);
    expect(iso(waves)).to.deep.equal([
      { timezone: 'Asia/Tokyo', send_at: '2026-06-10T22:00:00.000Z', ids: [1] },
      { timezone: 'America/Denver', send_at: '2026-06-11T13:00:00.000Z', ids: [2] },
    ]);
  });

  it('splits a campaign due at one instant only where quiet hours hold recipients back', () => {
    const quiet = { start: '22:00', end: '07:00' };
    const at = new Date('2026-06-10T12:00:00Z'); // 14:00 Berlin, 21:00 Tokyo, 06:00 Denver (quiet)
    const recipients = [{ id: 1, timeZone: 'Europe/Berlin' }, { id: 2, timeZone: 'Asia/Tokyo' }, { id: 3, timeZone: 'America/Denver' }];
    const waves = planWaves(recipients, { instant: at }, quiet, longAgo);
    expect(iso(waves)).to.deep.equal([
      { timezone: 'Asia/Tokyo', send_at: at.toISOString(), ids: [2] },
      { timezone: 'Europe/Berlin', send_at: at.toISOString(), ids: [1] },
      { timezone: 'America/Denver', send_at: '2026-06-10T13:00:00.000Z', ids: [3] },
    ]);
    expect(delaysAny(waves, at)).to.equal(true);
    expect(delaysAny(planWaves(recipients, { instant: at }, null, longAgo), at)).to.equal(false);
  });

  it('ends quiet hours that end in a spring-forward gap past the gap', () => {
    // Denver, 8 March 2026: quiet 00:00-02:30 ends in the gap, at 03:30 MDT (09:30Z); the card was due at 01:00 MST.
    const waves = planWaves([{ id: 1, timeZone: 'America/Denver' }], wall('2026-03-08T01:00'), { start: '00:00', end: '02:30' }, longAgo);
    expect(iso(waves)).to.deep.equal([{ timezone: 'America/Denver', send_at: '2026-03-08T09:30:00.000Z', ids: [1] }]);
  });

  it('takes the member\'s zone, else the CSV row\'s, else the account default', () => {
    expect(recipientZone('Asia/Tokyo', 'Europe/Berlin', 'UTC')).to.equal('Asia/Tokyo');
    expect(recipientZone(null, 'Europe/Berlin', 'UTC')).to.equal('Europe/Berlin');
    expect(recipientZone(null, undefined, 'America/Denver')).to.equal('America/Denver');
  });
});
