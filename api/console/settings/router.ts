// The console's directory and sending settings: custom date fields for members, and the suppression list
// (addresses and blocked domains). The same services as `cardsvc field` and `cardsvc suppression`.
import type { CustomField as CustomFieldRow } from '../../../models/CustomField.ts';
import { activeCustomFields, addCustomField, deactivateCustomField } from '../../../services/directory/custom-fields.ts';
import { addSuppression, listSuppressions, removeSuppression, validSuppressionValue, type SuppressionKind } from '../../../services/sends/accept/rules.ts';
import { PageMeta, pageMeta } from '../../schema-helpers.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { CustomField, CustomFieldBody, CustomFieldList, CustomFieldParams, SuppressionBody, SuppressionChange, SuppressionList, SuppressionsQuery } from './schema.ts';

const shownField = (f: CustomFieldRow) => ({ id: f.id, key: f.field_key, label: f.label, type: f.field_type, required: Boolean(f.required), active: Boolean(f.active) });

/** The kind and the normalized value of `{ email }` or `{ domain }` (400 when it is not one). */
function suppressionOf(body: { email?: string | undefined; domain?: string | undefined }): { kind: SuppressionKind; value: string } {
  const kind: SuppressionKind = body.email !== undefined ? 'email' : 'domain';
  return { kind, value: validSuppressionValue(kind, (body.email ?? body.domain)!) };
}

export const consoleSettingsRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'directory', level: 'view' },
    path: '/custom-fields',
    summary: 'The account’s custom date fields for members',
    response: CustomFieldList,
    async handler(_input, { services, account }) {
      return (await activeCustomFields(services, account.id)).map(shownField);
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/custom-fields',
    audit: 'directory.add_field',
    summary: 'Adds a custom date field (a removed key comes back with its members’ values)',
    body: CustomFieldBody,
    response: CustomField,
    async handler({ body }, { services, account }) {
      return shownField(await addCustomField(services, { accountId: account.id, key: body.key, label: body.label, required: body.required }));
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/custom-fields/:key/remove',
    audit: 'directory.remove_field',
    summary: 'Removes a custom field from the directory; members’ values are kept',
    params: CustomFieldParams,
    response: CustomField,
    async handler({ params }, { services, account }) {
      return shownField(await deactivateCustomField(services, account.id, params.key));
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/suppressions',
    summary: 'Suppressed addresses and blocked domains, newest first, paged',
    query: SuppressionsQuery,
    response: SuppressionList,
    meta: PageMeta,
    async handler({ query }, { services, account }) {
      const { rows, count } = await listSuppressions(services, account.id, query);
      return { data: rows.map((r) => ({ kind: r.kind, value: r.value, reason: r.reason, created_at: r.created_at.toISOString() })), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'sends', level: 'manage' },
    path: '/suppressions',
    audit: 'sends.suppress',
    summary: 'Suppresses an address ({ email }) or blocks a domain ({ domain }): sends to it are refused',
    body: SuppressionBody,
    response: SuppressionChange,
    async handler({ body }, { services, account }) {
      const { kind, value } = suppressionOf(body);
      return { kind, value, blocked: true, changed: await addSuppression(services, account.id, kind, value) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: { area: 'sends', level: 'manage' },
    path: '/suppressions/remove',
    audit: 'sends.unsuppress',
    summary: 'Lifts a suppression ({ email }) or a blocked domain ({ domain })',
    body: SuppressionBody,
    response: SuppressionChange,
    async handler({ body }, { services, account }) {
      const { kind, value } = suppressionOf(body);
      return { kind, value, blocked: false, changed: await removeSuppression(services, account.id, kind, value) };
    },
  }),
];
