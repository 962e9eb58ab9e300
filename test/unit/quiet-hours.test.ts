import { expect } from 'chai';
import { afterQuietHours, timeInQuietHours } from '../../services/local-time/quiet-hours.ts';

const night = { start: '22:00', end: '07:00' };
const lunch = { start: '12:00', end: '14:00' };

describe('quiet hours (pure)', () => {
  it('leaves a card outside the window where it is, and every card when there are no quiet hours', () => {
    const at = new Date('2026-06-10T10:00:00Z'); // 12:00 in Berlin (CEST)
    expect(afterQuietHours(at, 'Europe/Berlin', night).toISOString()).to.equal(at.toISOString());
    expect(afterQuietHours(at, 'Europe/Berlin', null).toISOString()).to.equal(at.toISOString());
  });

  it('moves a card after the start of a window crossing midnight to its end the next local morning', () => {
    // 23:30 in Berlin on 10 June → 07:00 on 11 June (05:00Z).
    expect(afterQuietHours(new Date('2026-06-10T21:30:00Z'), 'Europe/Berlin', night).toISOString()).to.equal('2026-06-11T05:00:00.000Z');
  });

  it('moves a card before the end of such a window to the same local morning', () => {
    // 03:00 in Tokyo (UTC+9) on 11 June → 07:00 the same day.
    expect(afterQuietHours(new Date('2026-06-10T18:00:00Z'), 'Asia/Tokyo', night).toISOString()).to.equal('2026-06-10T22:00:00.000Z');
  });

  it('counts the start as quiet and the end as not', () => {
    expect(afterQuietHours(new Date('2026-06-10T20:00:00Z'), 'Europe/Berlin', night).toISOString()).to.equal('2026-06-11T05:00:00.000Z');
    expect(afterQuietHours(new Date('2026-06-11T05:00:00Z'), 'Europe/Berlin', night).toISOString()).to.equal('2026-06-11T05:00:00.000Z');
  });

  it('ends a window inside one day on that day', () => {
    // 13:15 in Denver (MDT, UTC-6) → 14:00.
    expect(afterQuietHours(new Date('2026-06-10T19:15:00Z'), 'America/Denver', lunch).toISOString()).to.equal('2026-06-10T20:00:00.000Z');
  });

  it('lands an end that falls in a spring-forward gap as far past the gap as it was into it', () => {
    // Denver, 8 March 2026: 02:00 MST jumps to 03:00 MDT. A window 01:00-02:30 ends at 03:30 MDT (09:30Z).
    expect(afterQuietHours(new Date('2026-03-08T08:15:00Z'), 'America/Denver', { start: '01:00', end: '02:30' }).toISOString()).to.equal('2026-03-08T09:30:00.000Z');
  });

  it('ends a window at the first of two 01:30s when the clocks go back', () => {
    // Denver, 1 November 2026: 02:00 MDT goes back to 01:00 MST, so 01:30 happens twice; the earlier (07:30Z) ends it.
    expect(afterQuietHours(new Date('2026-11-01T06:10:00Z'), 'America/Denver', { start: '00:00', end: '01:30' }).toISOString()).to.equal('2026-11-01T07:30:00.000Z');
  });

  it('tells whether a send time lies inside the window', () => {
    expect(timeInQuietHours('23:00', night)).to.equal(true);
    expect(timeInQuietHours('06:59', night)).to.equal(true);
    expect(timeInQuietHours('07:00', night)).to.equal(false);
    expect(timeInQuietHours('09:00', night)).to.equal(false);
    expect(timeInQuietHours('13:00', lunch)).to.equal(true);
    expect(timeInQuietHours('23:00', null)).to.equal(false);
  });
});
