// Automation endpoints: list, findOne, toggle, save, delete (console only), previewTrigger, and the notification
// eCards (save, get, delete).
import { z } from 'zod';
import { consoleOnly, requireFields } from '../../lib/errors.ts';
import { findAutomation, listAutomations, saveAutomation, toggleAutomation } from '../../services/automations/automations.ts';
import { deleteNotificationEcards, getNotificationEcards, saveNotificationEcards } from '../../services/automations/notification-ecards.ts';
import { previewTrigger } from '../../services/automations/preview.ts';
import { automationView, automationViews } from '../../services/automations/view.ts';
import { defineRoute } from '../http/route.ts';
import { pageMeta } from '../schema-helpers.ts';
import { seesDirectory } from '../scopes.ts';
import { presentAutomation } from './present.ts';
import {
  Automation,
  AutomationIdParams,
  AutomationList,
  DeletedNotificationTypes,
  DeleteAutomationBody,
  DeleteNotificationEcardsBody,
  GetNotificationEcardsQuery,
  ListAutomationsQuery,
  NotificationEcards,
  PageMeta,
  Preview,
  PreviewTriggerBody,
  SaveAutomationBody,
  SaveNotificationEcardsBody,
  ToggleAutomationBody,
} from './schema.ts';

const tags = ['automations'];
const view = { area: 'automations', level: 'view' } as const;
const manage = { area: 'automations', level: 'manage' } as const;

export const automationRoutes = [
  defineRoute({
    method: 'get',
    path: '/automation/list',
    summary: 'Automations of the account, paged; filters by keyword (name, from-name, from-email), eventType and status',
    tags,
    access: view,
    query: ListAutomationsQuery,
    response: AutomationList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const { configs, count } = await listAutomations(services, caller.account.id, query);
      return { data: (await automationViews(services, configs, seesDirectory(caller))).map(presentAutomation), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/automation/findOne/id/:id',
    summary: 'One automation: its whole configuration with milestones, notification eCards and the next 30 days of firings',
    tags,
    access: view,
    params: AutomationIdParams,
    response: Automation,
    async handler({ params }, { services, caller }) {
      return presentAutomation(await automationView(services, await findAutomation(services, caller.account.id, params.id), seesDirectory(caller)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/automation/toggle',
    audit: 'automations.toggle',
    summary: 'Sets enabled (never flips it); enabling validates the configuration (422 automation_incomplete) and sends nothing already past',
    tags,
    access: manage,
    body: ToggleAutomationBody,
    response: Automation,
    async handler({ body }, { services, caller }) {
      const { id, enabled } = body.automation;
      requireFields({ 'automation.enabled': enabled });
      const saved = await toggleAutomation(services, caller.account.id, id, enabled!, body.gc_confirmation_token);
      return presentAutomation(await automationView(services, saved, seesDirectory(caller)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/automation/save',
    audit: 'automations.save',
    summary: 'Creates (no id; automation_name and event_type required) or updates the fields sent; saving an enabled automation validates it',
    tags,
    access: manage,
    body: SaveAutomationBody,
    response: Automation,
    async handler({ body }, { services, caller }) {
      const { id, ...input } = body.automation;
      const saved = await saveAutomation(services, caller.account.id, id, input, body.gc_confirmation_token);
      return presentAutomation(await automationView(services, saved, seesDirectory(caller)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/automation/delete',
    audit: 'automations.delete',
    summary: 'Always refused for a key (403 console_only): deleting an automation is confirmed in the console',
    tags,
    access: manage,
    body: DeleteAutomationBody,
    response: z.null(),
    async handler({ body }, { services, caller }) {
      await findAutomation(services, caller.account.id, body.id);
      throw consoleOnly('Deleting an automation is confirmed in the console, not with an API key', { extra: { requires_otp: true } });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/automation/previewTrigger',
    audit: { none: 'a preview renders; nothing changes' },
    summary: 'The firings a trigger would make (send dates in [from, from + days - 1]) over an automation’s scope or all active members; saves nothing',
    tags,
    access: view,
    body: PreviewTriggerBody,
    response: Preview,
    async handler({ body }, { services, caller }) {
      return previewTrigger(services, caller.account.id, body, seesDirectory(caller));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/automation/saveNotificationEcards',
    audit: 'automations.save_notifications',
    summary: 'Sets the eCards of one notification type (manager, department or segment digests); the type is on while it has eCards',
    tags,
    access: manage,
    body: SaveNotificationEcardsBody,
    response: NotificationEcards,
    async handler({ body }, { services, caller }) {
      return saveNotificationEcards(services, caller.account.id, body.automation_id, body.notification_type, body.ecardIds);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/automation/getNotificationEcards',
    summary: 'The eCards of one notification type',
    tags,
    access: view,
    query: GetNotificationEcardsQuery,
    response: NotificationEcards,
    async handler({ query }, { services, caller }) {
      return getNotificationEcards(services, caller.account.id, query.id, query.notification_type);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/automation/deleteNotificationEcards',
    audit: 'automations.delete_notifications',
    summary: 'Clears the eCards of one notification type, or of all (turning those notifications off); answers the types cleared',
    tags,
    access: manage,
    body: DeleteNotificationEcardsBody,
    response: DeletedNotificationTypes,
    async handler({ body }, { services, caller }) {
      return deleteNotificationEcards(services, caller.account.id, body.automation_id, body.notification_type);
    },
  }),
];
