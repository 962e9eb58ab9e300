// Contracts of the account's settings of local time (GET/POST /account/settings).
import { z } from 'zod';
import { timeZoneName, named } from '../schema-helpers.ts';

/** A 24-hour wall-clock time, two digits each: `07:00`, `22:30` (`9:5` and `25:00` are 400). */
export const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a 24-hour time HH:MM, e.g. 22:00');

export const QuietHours = z.object({
  start: clockTime.describe('when the quiet hours begin, HH:MM local to the recipient'),
  end: clockTime.describe('when they end; before start means the window crosses midnight (22:00 to 07:00)'),
});

export const AccountSettings = named('AccountSettings', z.object({
  default_timezone: z.string().describe('the IANA zone of members and recipients without one of their own (default UTC)'),
  quiet_hours: z
    .object({ start: z.string(), end: z.string() })
    .nullable()
    .describe('a daily window, local to each recipient, in which campaign and automation cards will wait (null: none)'),
}));

/** Either field, or both; a field left out keeps its value. */
export const AccountSettingsBody = z.object({
  default_timezone: timeZoneName.optional().describe('IANA time zone name, e.g. Europe/Berlin (canonicalised: europe/berlin → Europe/Berlin); an unknown zone is 400'),
  quiet_hours: QuietHours.nullable().optional().describe('null removes the quiet hours; start equal to end is 422 (an empty window)'),
});
