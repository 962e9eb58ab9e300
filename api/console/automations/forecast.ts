// An automation's next 30 days as the editor's calendar: the key API's previewTrigger over the automation's own
// trigger, timing and scope (saving nothing), laid out day by day from the first send date still open. One list of
// days: a month grid on a wide screen (CSS), a list of the days with someone due on a phone.
import { ApiError } from '../../../lib/errors.ts';
import type { AutomationConfig } from '../../../services/automations/config.ts';
import { addDays, lastPassedDate, sendInstant, weekday } from '../../../services/automations/due.ts';
import { memberZones } from '../../../services/automations/schedule.ts';
import { localIso } from '../../../services/campaigns/schedule-time.ts';
import { NEXT_FIRINGS_DAYS, previewTrigger } from '../../../services/automations/preview.ts';
import type { ServiceContext } from '../../../services/context.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

// A calendar cell is a seventh of the forecast's column: it names the zone by its city ("Tokyo"); the list above
// the calendar gives each zone in full.
const cityOf = (zone: string) => zone.split('/').at(-1)!.replaceAll('_', ' ');

export interface ForecastDay {
  date: string;
  label: string;
  /** 1 (Monday) … 7 (Sunday): the grid column of the first day. */
  column: number;
  first: boolean;
  people: Array<{ name: string; detail: string }>;
}

export interface Forecast {
  /** Why there is no forecast (the timing or trigger not set yet), instead of days. */
  unavailable?: string;
  caption?: string;
  timezone?: string;
  days?: ForecastDay[];
  due?: number;
  /**
   * recipient_timezone: each zone in use with the send time there as a moment in the automation's zone (on the
   * first day shown; the zones' Schedules fire at those moments).
   */
  zoneTimes?: Array<{ zone: string; local: string; inAutomationZone: string }>;
}

const dayLabel = (date: string, short = false) => {
  const [, m, d] = date.split('-').map(Number) as [number, number, number];
  return short ? `${DAYS[weekday(date)]!.slice(0, 3)} ${d} ${MONTHS[m - 1]!.slice(0, 3)}` : `${DAYS[weekday(date)]!} ${d} ${MONTHS[m - 1]!}`;
};

export async function forecastOf(services: ServiceContext, accountId: number, config: AutomationConfig): Promise<Forecast> {
  const timing = config.timing_config;
  if (!timing?.send_time || !timing.timezone) return { unavailable: 'Set a send time and a time zone to see who is due in the next 30 days.' };
  const from = addDays(lastPassedDate(services.now(), timing.send_time, timing.timezone), 1);
  let firings;
  try {
    ({ firings } = await previewTrigger(
      services,
      accountId,
      { trigger_type: config.row.event_type, trigger_config: config.trigger_config, timing_config: timing, automation_id: config.row.id, days: NEXT_FIRINGS_DAYS, from },
      true,
    ));
  } catch (err) {
    if (err instanceof ApiError && err.status < 500 && err.status !== 404) return { unavailable: `No forecast yet: ${err.messages.join('; ')}` };
    throw err;
  }
  const byDate = new Map(firings.map((f) => [f.local_date, f]));
  const perZone = timing.recipient_timezone === true;
  const days: ForecastDay[] = [];
  for (let i = 0; i < NEXT_FIRINGS_DAYS; i++) {
    const date = addDays(from, i);
    const occasions = byDate.get(date)?.occasions ?? [];
    days.push({
      date,
      label: dayLabel(date, true),
      column: ((weekday(date) + 6) % 7) + 1,
      first: i === 0,
      people: occasions.map((o) => ({
        name: o.name || o.email || `Member ${o.member_id}`,
        detail: [
          o.occasion_date !== date ? `for ${o.occasion_date}` : '',
          o.years !== undefined ? `${o.years} years` : '',
          perZone ? `${timing.send_time} ${cityOf(o.zone)}` : '',
        ].filter(Boolean).join(', '),
      })),
    });
  }
  const last = days.at(-1)!.date;
  const zoneTimes = perZone
    ? [...new Set([timing.timezone, ...(await memberZones(services, accountId))])].map((zone) => ({
      zone,
      local: timing.send_time,
      inAutomationZone: localIso(sendInstant(from, timing.send_time, zone), timing.timezone).slice(11, 16),
    }))
    : undefined;
  return {
    ...(zoneTimes ? { zoneTimes } : {}),
    caption: `${dayLabel(from)} to ${dayLabel(last)} ${last.slice(0, 4)}`,
    timezone: timing.timezone,
    days,
    due: days.reduce((sum, d) => sum + d.people.length, 0),
  };
}
