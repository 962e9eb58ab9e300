// The console's "Time and quiet hours" page (Settings): the account's default time zone and quiet hours, the same
// contract and service as the key API's GET/POST /account/settings. A refused value shows the form again, as typed,
// with the reason beside its field. Sandbox mode edits the sandbox's own settings.
import { ApiError } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { loadAccountSettings, updateAccountSettings } from '../../../services/account-settings.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { AccountSettingsBody } from '../../account-settings/schema.ts';
import { definePage, page, seeOther, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { zoneOptions } from '../kit/time-zones.ts';

export const LOCAL_TIME = `${CONSOLE_PREFIX}/local-time`;

/** The form's fields as typed (`quiet` is the checkbox: "on" when ticked). */
interface FormValues {
  default_timezone: string;
  quiet: boolean;
  quiet_start: string;
  quiet_end: string;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function formPage(values: FormValues, state: { errors?: Record<string, string>; notice?: string | undefined } = {}, status?: number): PageResult {
  const errors = state.errors ?? {};
  return page(
    {
      title: 'Time and quiet hours',
      view: 'local-time',
      notice: state.notice,
      error: Object.keys(errors).length ? 'Nothing is saved: see the fields marked below.' : undefined,
      values,
      zones: zoneOptions(values.default_timezone),
      errors,
    },
    status,
  );
}

async function savedValues(services: ServiceContext, account: Account): Promise<FormValues> {
  const settings = await loadAccountSettings(services, account.id);
  return { default_timezone: settings.default_timezone, quiet: settings.quiet_hours !== null, quiet_start: settings.quiet_hours?.start ?? '', quiet_end: settings.quiet_hours?.end ?? '' };
}

export const localTimePageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'settings', level: 'view' },
    path: '/local-time',
    async handler(_input, { services, account, koa }) {
      return formPage(await savedValues(services, account), { notice: koa.query.done === 'saved' ? 'The settings are saved.' : undefined });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'settings', level: 'manage' },
    path: '/local-time',
    audit: 'settings.local_time',
    async handler({ form }, { services, account }) {
      const values: FormValues = { default_timezone: form.default_timezone ?? '', quiet: form.quiet === 'on', quiet_start: form.quiet_start ?? '', quiet_end: form.quiet_end ?? '' };
      // Unticked, the quiet hours are removed whatever the time fields hold.
      const parsed = AccountSettingsBody.safeParse({ default_timezone: values.default_timezone, quiet_hours: values.quiet ? { start: values.quiet_start, end: values.quiet_end } : null });
      if (!parsed.success) {
        const errors: Record<string, string> = {};
        for (const issue of parsed.error.issues) {
          const [first, second] = issue.path.map(String);
          errors[first === 'quiet_hours' && second ? `quiet_${second}` : first!] ??= sentence(issue.message);
        }
        return formPage(values, { errors }, 400);
      }
      try {
        await updateAccountSettings(services, account.id, parsed.data);
      } catch (err) {
        // An empty window (start = end): the reason under the quiet hours.
        if (!(err instanceof ApiError) || err.status !== 422) throw err;
        return formPage(values, { errors: { quiet_hours: 'The quiet hours start and end at the same time: choose two different times, or untick them.' } }, 422);
      }
      return seeOther(`${LOCAL_TIME}?done=saved`);
    },
  }),
];
