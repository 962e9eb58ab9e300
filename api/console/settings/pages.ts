// The console's fields and suppressions page: custom date fields for members (list, add, remove) and the
// suppression list (addresses and blocked domains). The same services as the console API's settings group.
import { activeCustomFields, addCustomField, deactivateCustomField } from '../../../services/directory/custom-fields.ts';
import { addSuppression, listSuppressions, removeSuppression, validSuppressionValue } from '../../../services/sends/accept/rules.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { parseInput } from '../../http/validation.ts';
import { CustomFieldBody, CustomFieldParams, SuppressionBody, SuppressionsQuery } from './schema.ts';
import { paging } from '../kit/render.ts';

const SETTINGS = `${CONSOLE_PREFIX}/settings`;

const NOTICES: Record<string, string> = {
  'field-added': 'The custom field is added.',
  'field-removed': 'The custom field is removed; members keep their values.',
  suppressed: 'Sends to it are refused from now on.',
  'already-suppressed': 'It was already blocked.',
  lifted: 'The block is lifted.',
  'not-suppressed': 'It was not blocked.',
};

const done = (what: string) => seeOther(`${SETTINGS}?done=${what}`);

/** `{ email }` or `{ domain }` from the form's kind and value fields. */
function suppressionOf(form: Record<string, string>) {
  const body = parseInput(SuppressionBody, form.kind === 'domain' ? { domain: form.value || undefined } : { email: form.value || undefined }, 'body');
  const kind = body.email !== undefined ? ('email' as const) : ('domain' as const);
  return { kind, value: validSuppressionValue(kind, (body.email ?? body.domain)!) };
}

export const settingsPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'view' },
    path: '/settings',
    query: SuppressionsQuery,
    async handler({ query }, { services, account, koa }) {
      const [fields, suppressions] = await Promise.all([activeCustomFields(services, account.id), listSuppressions(services, account.id, query)]);
      const link = (n: number) => `${SETTINGS}?${new URLSearchParams({ ...(query.kind ? { kind: query.kind } : {}), perPage: String(query.perPage), page: String(n) }).toString()}`;
      return page({
        title: 'Fields and suppressions',
        view: 'settings',
        notice: typeof koa.query.done === 'string' ? NOTICES[koa.query.done] : undefined,
        fields: fields.map((f) => ({ key: f.field_key, label: f.label, type: f.field_type, required: Boolean(f.required) })),
        suppressions: suppressions.rows.map((r) => ({ kind: r.kind, value: r.value, reason: r.reason, created_at: r.created_at.toISOString() })),
        ...paging(query.page, query.perPage, suppressions.count, link),
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/settings/fields',
    audit: 'directory.add_field',
    body: CustomFieldBody,
    fromForm: (form) => ({ key: form.key || undefined, label: form.label || undefined, required: form.required === 'on' }),
    async handler({ body }, { services, account }) {
      await addCustomField(services, { accountId: account.id, key: body.key, label: body.label, required: body.required });
      return done('field-added');
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/settings/fields/:key/remove',
    audit: 'directory.remove_field',
    params: CustomFieldParams,
    async handler({ params }, { services, account }) {
      await deactivateCustomField(services, account.id, params.key);
      return done('field-removed');
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'sends', level: 'manage' },
    path: '/settings/suppressions',
    audit: 'sends.suppress',
    async handler({ form }, { services, account }) {
      const { kind, value } = suppressionOf(form);
      return done((await addSuppression(services, account.id, kind, value)) ? 'suppressed' : 'already-suppressed');
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'sends', level: 'manage' },
    path: '/settings/suppressions/remove',
    audit: 'sends.unsuppress',
    async handler({ form }, { services, account }) {
      const { kind, value } = suppressionOf(form);
      return done((await removeSuppression(services, account.id, kind, value)) ? 'lifted' : 'not-suppressed');
    },
  }),
];
