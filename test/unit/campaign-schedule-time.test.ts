import { expect } from 'chai';
import { ApiError } from '../../lib/errors.ts';
import {
  canonicalTimeZone, checkScheduleWindow, localIso, parseScheduledAt, zonedToInstant,
} from '../../services/campaigns/schedule-time.ts';

function expectApiError(fn: () => unknown, status: number, code: string, message?: RegExp): void {
  expect(fn).to.throw(ApiError).that.satisfies((err: ApiError) => {
    expect([err.status, err.code]).to.deep.equal([status, code]);
    if (message) expect(err.message).to.match(message);
    return true;
  });
}

const iso = (input: string, zone: string) => parseScheduledAt(input, zone).toISOString();

describe('campaign schedule time', () => {
  describe('parseScheduledAt', () => {
    it('reads a time without an offset as wall clock in the zone', () => {
      expect(iso('2027-01-05T15:30', 'Asia/Kolkata')).to.equal('2027-01-05T10:00:00.000Z');
      expect(iso('2027-01-05T15:30:45.123', 'Asia/Kolkata')).to.equal('2027-01-05T10:00:45.123Z');
      expect(iso('2027-07-01T12:00', 'America/New_York')).to.equal('2027-07-01T16:00:00.000Z');
      expect(iso('2027-01-05T12:00:00', 'UTC')).to.equal('2027-01-05T12:00:00.000Z');
    });

    it('lets an explicit Z or ±HH:mm offset win over the zone', () => {
      expect(iso('2027-01-05T10:00Z', 'Asia/Kolkata')).to.equal('2027-01-05T10:00:00.000Z');
      expect(iso('2027-01-05T10:00:00+02:00', 'Asia/Kolkata')).to.equal('2027-01-05T08:00:00.000Z');
      expect(iso('2027-01-05T10:00:00.500-04:30', 'Europe/Berlin')).to.equal('2027-01-05T14:30:00.500Z');
    });

    it('moves a time in a DST gap forward by the gap', () => {
      expect(iso('2027-03-14T02:30', 'America/New_York')).to.equal('2027-03-14T07:30:00.000Z'); // 03:30 EDT
      expect(iso('2027-03-28T02:30', 'Europe/Berlin')).to.equal('2027-03-28T01:30:00.000Z'); // 03:30 CEST
      expect(iso('2027-10-03T02:30', 'Australia/Sydney')).to.equal('2027-10-02T16:30:00.000Z'); // 03:30 AEDT
      // Either side of the gap is untouched.
      expect(iso('2027-03-14T01:59', 'America/New_York')).to.equal('2027-03-14T06:59:00.000Z');
      expect(iso('2027-03-14T03:00', 'America/New_York')).to.equal('2027-03-14T07:00:00.000Z');
    });

    it('takes the earlier instant of an ambiguous (fall back) time', () => {
      expect(iso('2027-11-07T01:30', 'America/New_York')).to.equal('2027-11-07T05:30:00.000Z'); // 01:30 EDT
      expect(iso('2027-10-31T02:30', 'Europe/Berlin')).to.equal('2027-10-31T00:30:00.000Z'); // 02:30 CEST
      expect(iso('2027-11-07T00:59', 'America/New_York')).to.equal('2027-11-07T04:59:00.000Z');
      expect(iso('2027-11-07T02:00', 'America/New_York')).to.equal('2027-11-07T07:00:00.000Z');
    });

    const badFormats = [
      '2027-01-05', '2027-01-05 10:00', '2027-13-01T00:00', '2027-02-30T10:00', '2027-01-05T25:00', '2027-01-05T24:00',
      '2027-01-05T10:60', '2027-01-05T10:00:60', '2027-01-05T10:00Zjunk', '2027-01-05T10:00 ', '2027-01-05T10:00:00.12',
      '2027-01-05T10:00+2:00', '2027-01-05T10:00+05:60', '2027-01-05T10:00z', '27-01-05T10:00', '',
    ];
    for (const input of badFormats) {
      it(`refuses ${JSON.stringify(input)} with a 400 naming scheduled_at`, () => {
        expectApiError(() => parseScheduledAt(input, 'Europe/Berlin'), 400, 'invalid_parameter', /scheduled_at/);
      });
    }

    it('accepts February 29 only in a leap year', () => {
      expect(iso('2028-02-29T10:00Z', 'UTC')).to.equal('2028-02-29T10:00:00.000Z');
      expectApiError(() => parseScheduledAt('2027-02-29T10:00', 'UTC'), 400, 'invalid_parameter');
    });

    it('refuses a bad zone even when the time has an offset', () => {
      expectApiError(() => parseScheduledAt('2027-01-05T10:00', 'Mars/Olympus'), 400, 'invalid_parameter', /scheduled_timezone/);
      expectApiError(() => parseScheduledAt('2027-01-05T10:00Z', 'Mars/Olympus'), 400, 'invalid_parameter', /scheduled_timezone/);
    });
  });

  describe('canonicalTimeZone', () => {
    for (const zone of ['Mars/Olympus', '+05:30', '-04:00', '']) {
      it(`refuses ${JSON.stringify(zone)} with a 400 naming scheduled_timezone`, () => {
        expectApiError(() => canonicalTimeZone(zone), 400, 'invalid_parameter', /scheduled_timezone/);
      });
    }

    it('returns the canonical spelling', () => {
      expect(canonicalTimeZone('europe/berlin')).to.equal('Europe/Berlin');
      expect(canonicalTimeZone('utc')).to.equal('UTC');
      expect(canonicalTimeZone('Etc/GMT+5')).to.equal('Etc/GMT+5');
      // Node 20's ICU still names India by its old IANA link: a current name written the IANA way is kept as
      // written; a lower-case spelling takes ICU's name. Both are IANA and work in Intl and Temporal.
      expect(canonicalTimeZone('Asia/Kolkata')).to.equal('Asia/Kolkata');
      expect(canonicalTimeZone('asia/kolkata')).to.be.oneOf(['Asia/Kolkata', 'Asia/Calcutta']);
    });
  });

  describe('zonedToInstant', () => {
    it('takes a wall clock with seconds and milliseconds', () => {
      const wall = { year: 2027, month: 6, day: 1, hour: 9, minute: 5, second: 7, millisecond: 89 };
      expect(zonedToInstant(wall, 'Europe/Berlin').toISOString()).to.equal('2027-06-01T07:05:07.089Z');
    });

    it('round-trips every hour of 2027 with localIso (ambiguous hours to the earlier instant)', () => {
      for (const zone of ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Kolkata', 'UTC']) {
        for (let t = Date.UTC(2027, 0, 1); t < Date.UTC(2028, 0, 1); t += 3_600_000) {
          const local = localIso(new Date(t), zone);
          expect(parseScheduledAt(local, zone).getTime(), local).to.equal(t);
          const wallOnly = parseScheduledAt(local.slice(0, 23), zone).getTime();
          expect([t, t - 3_600_000], `${local} in ${zone}`).to.include(wallOnly);
          expect(localIso(new Date(wallOnly), zone).slice(0, 23)).to.equal(local.slice(0, 23));
        }
      }
    });
  });

  describe('checkScheduleWindow', () => {
    const now = new Date('2027-01-01T00:00:00.000Z');
    const at = (ms: number) => new Date(now.getTime() + ms);
    const day = 86_400_000;

    it('refuses the past and the send-now window with 422 scheduled_at_past', () => {
      expectApiError(() => checkScheduleWindow(at(-day), now, 60), 422, 'scheduled_at_past');
      expectApiError(() => checkScheduleWindow(now, now, 60), 422, 'scheduled_at_past');
      expectApiError(() => checkScheduleWindow(at(59_999), now, 60), 422, 'scheduled_at_past');
    });

    it('refuses more than 366 days ahead with 422 scheduled_at_too_far', () => {
      expectApiError(() => checkScheduleWindow(at(366 * day + 1), now, 60), 422, 'scheduled_at_too_far');
      expectApiError(() => checkScheduleWindow(at(400 * day), now, 60), 422, 'scheduled_at_too_far');
    });

    it('accepts the edges of the window', () => {
      expect(() => checkScheduleWindow(at(60_000), now, 60)).not.to.throw();
      expect(() => checkScheduleWindow(at(366 * day), now, 60)).not.to.throw();
      expect(() => checkScheduleWindow(now, now, 0)).not.to.throw();
    });
  });

  describe('localIso', () => {
    it('shows the wall clock with the zone offset and milliseconds', () => {
      expect(localIso(new Date('2027-01-05T10:00:00.000Z'), 'Asia/Kolkata')).to.equal('2027-01-05T15:30:00.000+05:30');
      expect(localIso(new Date('2027-01-05T10:00:00.007Z'), 'UTC')).to.equal('2027-01-05T10:00:00.007+00:00');
      expect(localIso(new Date('2027-07-01T16:00:00.000Z'), 'America/New_York')).to.equal('2027-07-01T12:00:00.000-04:00');
      expect(localIso(new Date('2027-01-05T17:00:00.000Z'), 'America/New_York')).to.equal('2027-01-05T12:00:00.000-05:00');
    });

    it('follows the offset change across fall back', () => {
      expect(localIso(new Date('2027-11-07T05:30:00.000Z'), 'America/New_York')).to.equal('2027-11-07T01:30:00.000-04:00');
      expect(localIso(new Date('2027-11-07T06:30:00.000Z'), 'America/New_York')).to.equal('2027-11-07T01:30:00.000-05:00');
      expect(localIso(new Date('2027-03-28T01:30:00.000Z'), 'Europe/Berlin')).to.equal('2027-03-28T03:30:00.000+02:00');
    });
  });
});
