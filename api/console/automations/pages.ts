// The console's automations: the list (next firing of the enabled ones), a new automation by event type, and an
// automation's page: its editor (the fields of its type), the 30-day forecast as a calendar, enable and disable,
// notification eCards and gift cards. Every change goes through the key API's use cases (services/automations);
// their refusals are shown beside the fields they name; gated changes ask for the gc_automation_enable token inline.
import { z } from 'zod';
import { EVENT_TYPES, type AutomationEventType } from '../../../models/Automation.ts';
import { NOTIFICATION_TYPES } from '../../../models/AutomationEcard.ts';
import { findAutomation, listAutomations, saveAutomation, toggleAutomation, type AutomationInput } from '../../../services/automations/automations.ts';
import type { AutomationConfig } from '../../../services/automations/config.ts';
import { saveNotificationEcards } from '../../../services/automations/notification-ecards.ts';
import { automationViews } from '../../../services/automations/view.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { activeCustomFields } from '../../../services/directory/custom-fields.ts';
import { listDepartments } from '../../../services/directory/departments.ts';
import { AutomationIdParams } from '../../automations/schema.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult, type SessionContext } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { pageQuery } from '../../schema-helpers.ts';
import { forecastOf } from './forecast.ts';
import { automationInputOf, EVENT_TYPES_SHOWN, fieldErrorsOf, formOf, giftInputOf, isFormRefusal, labelOfType, tickedIds, type FieldErrors, type Form } from './form.ts';
import { withInlineToken } from '../kit/inline-token.ts';
import { zoneOptions } from '../kit/time-zones.ts';
import { paging } from '../kit/render.ts';

const BASE = `${CONSOLE_PREFIX}/automations`;
const LIST_ROWS = 50;
/** The eCards offered in the pickers (the account's catalogue, outside campaigns), by name. */
const ECARD_CHOICES = 200;

const NOTICES: Record<string, string> = {
  saved: 'The automation is saved.',
  enabled: 'The automation is enabled: its cards go out at the send time.',
  disabled: 'The automation is disabled: nothing is sent until it is enabled again.',
  notifications: 'The notification eCards are saved.',
  gift: 'The gift settings are saved.',
};
const NOTIFICATION_LABELS: Record<(typeof NOTIFICATION_TYPES)[number], { label: string; hint: string }> = {
  manager: { label: 'Manager digest', hint: 'Each celebrant’s manager gets one card listing their people.' },
  department: { label: 'Department digest', hint: 'Members sharing a department with a celebrant (at most 500).' },
  segment: { label: 'Segment digest', hint: 'The members and departments of the notification segment.' },
};

type Context = SessionContext & { page: { csrf: string } };

async function ecardChoices(services: ServiceContext, accountId: number) {
  const rows = await services.models.Ecard.findAll({
    attributes: ['id', 'name', 'disabled'],
    where: { account_id: accountId },
    include: [{ model: services.models.Widget, attributes: [], required: true, where: { is_campaign: false } }],
    order: [['name', 'ASC'], ['id', 'ASC']],
    limit: ECARD_CHOICES,
  });
  return rows.map((e) => ({ id: e.id, name: e.name, hidden: e.disabled }));
}

interface EditorState {
  type: AutomationEventType;
  config: AutomationConfig | null;
  values: Form;
  errors?: FieldErrors;
  /** The banner above placed messages (default: nothing was saved). */
  summary?: string | undefined;
  notice?: string | undefined;
  /** A gated change waiting for the owner's confirmation: the message and the form to post again with confirm=yes. */
  confirm?: { message: string; action: string; fields: Form } | undefined;
}


async function editorPage(services: ServiceContext, accountId: number, state: EditorState, status?: number): Promise<PageResult> {
  const { type, config, values } = state;
  const errors = state.errors ?? {};
  const [ecards, departments, fields] = await Promise.all([ecardChoices(services, accountId), listDepartments(services, accountId), activeCustomFields(services, accountId)]);
  const selected = new Set(tickedIds(values, 'ecard_'));
  const inDepartments = new Set(tickedIds(values, 'department_'));
  const id = config?.row.id ?? 0;
  const forecast = config ? await forecastOf(services, accountId, config) : null;
  const err = (name: keyof FieldErrors) => errors[name];
  const shownType = EVENT_TYPES_SHOWN.find((t) => t.value === type)!;
  return page(
    {
      title: config ? `Automation “${config.row.automation_name}”` : `New ${shownType.label.toLowerCase()} automation`,
      view: 'automation-editor',
      styles: ['automations.css'],
      notice: state.notice,
      error: errors.general?.join(' ') ?? (Object.keys(errors).length ? (state.summary ?? 'Nothing was saved: see the messages beside the fields.') : undefined),
      id,
      type: shownType,
      is: Object.fromEntries(EVENT_TYPES.map((t) => [t, t === type])),
      enabled: config?.row.enabled ?? false,
      v: values,
      e: errors,
      yearly: values.repeat === 'yearly',
      action: id ? `${BASE}/${id}` : BASE,
      ecards: ecards.map((e) => ({ ...e, checked: selected.has(e.id) })),
      departments: departments.map(({ department, members }) => ({ id: department.id, name: department.name, members, checked: inDepartments.has(department.id) })),
      customFields: fields.map((f) => ({ key: f.field_key, label: f.label, selected: f.field_key === values.field })),
      dateFields: [
        { key: '', label: 'Hire date (the default)', selected: !values.date_field },
        { key: 'hire_date', label: 'Hire date', selected: values.date_field === 'hire_date' },
        { key: 'date_of_birth', label: 'Date of birth', selected: values.date_field === 'date_of_birth' },
        ...fields.map((f) => ({ key: f.field_key, label: f.label, selected: f.field_key === values.date_field })),
      ],
      notifications: config
        ? NOTIFICATION_TYPES.map((t) => ({
          type: t,
          ...NOTIFICATION_LABELS[t],
          ecards: ecards.map((e) => ({ ...e, checked: config.notification_ecards[t].includes(e.id) })),
        }))
        : undefined,
      forecast,
      zones: zoneOptions(values.timezone),
      timezoneError: errors.timezone?.join(' '),
      confirm: state.confirm ? { ...state.confirm, fields: Object.entries(state.confirm.fields).filter(([k]) => k !== '_csrf' && k !== 'confirm').map(([name, value]) => ({ name, value })) } : undefined,
      hasErrors: Boolean(err('general')),
    },
    status,
  );
}

/** The editor of a saved automation as stored, with a notice. */
async function savedEditor(services: ServiceContext, accountId: number, config: AutomationConfig, notice?: string): Promise<PageResult> {
  return editorPage(services, accountId, { type: config.row.event_type, config, values: formOf(config), notice });
}

/**
 * Runs a change of a saved automation through the inline gc_automation_enable step (asked only when the service
 * refuses without it): done → 303 to the editor with `done`; a refusal → the editor with the messages beside the
 * fields and `values` as typed; a confirmation → the editor asking for it, re-posting `form`.
 */
async function gated(
  context: Context,
  form: Form,
  config: AutomationConfig,
  run: (token: string | undefined) => Promise<unknown>,
  after: { done: string; values: Form; action: string },
): Promise<PageResult> {
  const { services, account } = context;
  const id = config.row.id;
  const gate = { purpose: 'gc_automation_enable' as const, resourceId: id, action: `Confirm the gift cards of the automation “${config.row.automation_name}”`, back: `${BASE}/${id}` };
  try {
    const result = await withInlineToken(context, form, gate, run);
    if ('confirm' in result) {
      return editorPage(services, account.id, { type: config.row.event_type, config, values: after.values, confirm: { message: result.confirm.message, action: after.action, fields: form } }, 409);
    }
  } catch (err) {
    if (!isFormRefusal(err)) throw err;
    const summary = after.done === 'enabled' ? 'The automation is not enabled: what it needs is shown beside the fields.' : undefined;
    return editorPage(services, account.id, { type: config.row.event_type, config, values: after.values, errors: fieldErrorsOf(err), summary }, err.status);
  }
  return seeOther(`${BASE}/${id}?done=${after.done}`);
}

const NewQuery = z.object({ type: z.enum(EVENT_TYPES).optional() });

export const automationPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'automations', level: 'view' },
    path: '/automations',
    query: pageQuery(),
    async handler({ query }, { services, account, koa }) {
      const { configs, count } = await listAutomations(services, account.id, { page: query.page, perPage: LIST_ROWS, sortBy: 'name', sortOrder: 'asc', status: 'all' });
      const views = await automationViews(services, configs, true);
      return page({
        title: 'Automations',
        view: 'automations',
        styles: ['automations.css'],
        notice: NOTICES[String(koa.query.done)],
        automations: views.map(({ config, nextFirings }) => {
          const next = nextFirings[0];
          return {
            id: config.row.id,
            name: config.row.automation_name,
            type: labelOfType(config.row.event_type),
            enabled: config.row.enabled,
            next: next ? { date: next.local_date, people: next.occasions.length } : undefined,
          };
        }),
        ...paging(query.page, LIST_ROWS, count, (n) => `${BASE}?page=${n}`),
      });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'automations', level: 'manage' },
    path: '/automations/new',
    query: NewQuery,
    async handler({ query }, { services, account }) {
      if (!query.type) return page({ title: 'New automation', view: 'automation-new', styles: ['automations.css'], types: EVENT_TYPES_SHOWN });
      return editorPage(services, account.id, { type: query.type, config: null, values: { send_time: '09:00', timezone: 'UTC', locale: 'en', notify_days_before: '0' } });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'automations', level: 'manage' },
    path: '/automations',
    audit: 'automations.save',
    async handler({ form }, { services, account }) {
      const type = (EVENT_TYPES as readonly string[]).includes(form.event_type ?? '') ? (form.event_type as AutomationEventType) : 'birthday';
      let input: AutomationInput;
      try {
        input = automationInputOf(type, form, true);
        const saved = await saveAutomation(services, account.id, undefined, input, undefined);
        return seeOther(`${BASE}/${saved.row.id}?done=saved`);
      } catch (err) {
        if (!isFormRefusal(err)) throw err;
        return editorPage(services, account.id, { type, config: null, values: form, errors: fieldErrorsOf(err) }, err.status);
      }
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'automations', level: 'view' },
    path: '/automations/:id',
    params: AutomationIdParams,
    async handler({ params }, { services, account, koa }) {
      const config = await findAutomation(services, account.id, params.id);
      return savedEditor(services, account.id, config, NOTICES[String(koa.query.done)]);
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'automations', level: 'manage' },
    path: '/automations/:id',
    audit: 'automations.save',
    params: AutomationIdParams,
    async handler({ params, form }, context) {
      const config = await findAutomation(context.services, context.account.id, params.id);
      const values = { ...form, gift_card_enabled: config.row.gift_card_enabled ? 'on' : '' };
      return gated(context, form, config, (token) => saveAutomation(context.services, context.account.id, config.row.id, automationInputOf(config.row.event_type, form, false), token), {
        done: 'saved', values, action: `${BASE}/${config.row.id}`,
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'automations', level: 'manage' },
    path: '/automations/:id/enable',
    audit: 'automations.toggle',
    params: AutomationIdParams,
    async handler({ params, form }, context) {
      const config = await findAutomation(context.services, context.account.id, params.id);
      const on = form.enabled === 'yes';
      return gated(context, form, config, (token) => toggleAutomation(context.services, context.account.id, config.row.id, on, token), {
        done: on ? 'enabled' : 'disabled', values: formOf(config), action: `${BASE}/${config.row.id}/enable`,
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'automations', level: 'manage' },
    path: '/automations/:id/gift',
    audit: 'automations.set_gift',
    params: AutomationIdParams,
    async handler({ params, form }, context) {
      const config = await findAutomation(context.services, context.account.id, params.id);
      const values = { ...formOf(config), gift_card_enabled: form.gift_card_enabled ?? '', product_id: form.product_id ?? '', amount: form.amount ?? '' };
      return gated(context, form, config, (token) => saveAutomation(context.services, context.account.id, config.row.id, giftInputOf(form), token), {
        done: 'gift', values, action: `${BASE}/${config.row.id}/gift`,
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'automations', level: 'manage' },
    path: '/automations/:id/notifications',
    audit: 'automations.save_notifications',
    params: AutomationIdParams,
    async handler({ params, form }, { services, account }) {
      const config = await findAutomation(services, account.id, params.id);
      try {
        for (const type of NOTIFICATION_TYPES) {
          const ids = tickedIds(form, `notify_${type}_`);
          await saveNotificationEcards(services, account.id, config.row.id, type, ids);
        }
      } catch (err) {
        if (!isFormRefusal(err)) throw err;
        return editorPage(services, account.id, { type: config.row.event_type, config, values: formOf(config), errors: { general: err.messages } }, err.status);
      }
      return seeOther(`${BASE}/${config.row.id}?done=notifications`);
    },
  }),
];
