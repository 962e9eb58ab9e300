// The account's settings of local time on the key API: its default time zone and quiet hours (the sandbox has its own).
import { loadAccountSettings, updateAccountSettings } from '../../services/account-settings.ts';
import { defineRoute } from '../http/route.ts';
import { AccountSettings, AccountSettingsBody } from './schema.ts';

const tags = ['account'];

export const accountSettingsRoutes = [
  defineRoute({
    method: 'get',
    path: '/account/settings',
    summary: 'The account’s default time zone and quiet hours (not used by any send yet)',
    tags,
    access: { area: 'settings', level: 'view' },
    response: AccountSettings,
    async handler(_input, { services, caller }) {
      return loadAccountSettings(services, caller.account.id);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/account/settings',
    audit: 'settings.update',
    summary: 'Changes the default time zone, the quiet hours, or both (a field left out keeps its value)',
    tags,
    access: { area: 'settings', level: 'manage' },
    body: AccountSettingsBody,
    response: AccountSettings,
    async handler({ body }, { services, caller }) {
      return updateAccountSettings(services, caller.account.id, body);
    },
  }),
];
