// One member in the console: add, edit (standard and custom fields), deactivate, reactivate and erase (after a page
// naming what goes), all through the directory's use cases with `source: "ui"`, so the member events fire as for
// the key API's calls. Another account's member, or an unknown id, is a 404.
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { activeCustomFields } from '../../../services/directory/custom-fields.ts';
import { eraseMember, setMemberDisabled } from '../../../services/directory/members.ts';
import { erasureReach } from '../../../services/directory/search.ts';
import { upsertMember } from '../../../services/directory/upsert.ts';
import { loadView, type MemberView } from '../../../services/directory/view.ts';
import { notFound } from '../../../lib/errors.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { numericId } from '../../schema-helpers.ts';
import { formFields, formValuesOf, memberFieldsOf, placeError } from './form.ts';

const BASE = `${CONSOLE_PREFIX}/directory/members`;
const MemberIdParams = z.object({ id: numericId() });

const NOTICES: Record<string, string> = {
  created: 'The member is added.',
  saved: 'The member is saved.',
  unchanged: 'Nothing changed.',
  deactivated: 'The member is deactivated: their seat is free and automations skip them.',
  reactivated: 'The member is active again.',
  'already-active': 'The member was already active.',
  'already-deactivated': 'The member was already deactivated.',
};

async function memberOf(services: ServiceContext, account: Account, id: number): Promise<MemberView & { id: number }> {
  const member = await services.models.TeamMember.findOne({ where: { account_id: account.id, id } });
  if (!member) throw notFound(`No member ${id}`);
  return (await loadView(services, member)) as MemberView & { id: number };
}

const nameOf = (m: MemberView) => [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email;

interface EditorState {
  member: (MemberView & { id: number }) | null;
  values: Record<string, string>;
  errors?: Record<string, string>;
  error?: string | undefined;
  notice?: string | undefined;
}

async function editorPage(services: ServiceContext, account: Account, state: EditorState, status?: number): Promise<PageResult> {
  const custom = await activeCustomFields(services, account.id);
  const { member } = state;
  return page(
    {
      title: member ? nameOf(member) : 'Add a member',
      view: 'directory-member',
      styles: ['directory.css'],
      notice: state.notice,
      error: state.error,
      member: member ? { id: member.id, email: member.email, disabled: member.disabled, created_at: member.created_at.toISOString(), updated_at: member.updated_at.toISOString() } : undefined,
      action: member ? `${BASE}/${member.id}` : BASE,
      fields: formFields(custom, state.values, state.errors ?? {}),
      hasErrors: Object.keys(state.errors ?? {}).length > 0,
    },
    status,
  );
}

/** Saves the posted form as an upsert (by id when editing); a refusal shows the form as typed with its reason. */
async function save(services: ServiceContext, account: Account, form: Record<string, string>, member: (MemberView & { id: number }) | null): Promise<PageResult> {
  const custom = await activeCustomFields(services, account.id);
  const values = Object.fromEntries(Object.entries(form).filter(([k]) => k !== '_csrf'));
  const checked = memberFieldsOf(form, custom);
  if (!checked.ok) return editorPage(services, account, { member, values, errors: checked.errors, error: 'The member is not saved: see the fields marked below.' }, 400);
  try {
    const result = await upsertMember(services, account.id, {
      fields: checked.fields,
      matchField: 'email',
      dryRun: false,
      source: 'ui',
      ignored: [],
      ...(member ? { memberId: member.id } : {}),
    });
    const done = member ? (result.action === 'unchanged' ? 'unchanged' : 'saved') : 'created';
    return seeOther(`${BASE}/${result.member.id}?done=${done}`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 404 || err.status >= 500) throw err;
    const names = formFields(custom, {}, {}).map((f) => f.name);
    const placed = placeError(err, names);
    return editorPage(services, account, { member, values, errors: placed.errors, error: placed.error ?? 'The member is not saved: see the field marked below.' }, err.status);
  }
}

export const memberPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/members/new',
    async handler(_input, { services, account }) {
      return editorPage(services, account, { member: null, values: {} });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/members',
    audit: 'directory.save_member',
    async handler({ form }, { services, account }) {
      return save(services, account, form, null);
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'view' },
    path: '/directory/members/:id',
    params: MemberIdParams,
    async handler({ params }, { services, account, koa }) {
      const member = await memberOf(services, account, params.id);
      return editorPage(services, account, { member, values: formValuesOf(member), notice: NOTICES[String(koa.query.done)] });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/members/:id',
    audit: 'directory.save_member',
    params: MemberIdParams,
    async handler({ params, form }, { services, account }) {
      // Another account's id is a 404 before anything in the form is looked at.
      return save(services, account, form, await memberOf(services, account, params.id));
    },
  }),
  ...(['deactivate', 'reactivate'] as const).map((verb) =>
    definePage({
      method: 'post',
      role: { area: 'directory', level: 'manage' },
      path: `/directory/members/:id/${verb}`,
      audit: `directory.${verb}`,
      params: MemberIdParams,
      async handler({ params }, { services, account }) {
        const member = await memberOf(services, account, params.id);
        const disabled = verb === 'deactivate';
        if (member.disabled === disabled) return seeOther(`${BASE}/${member.id}?done=already-${disabled ? 'deactivated' : 'active'}`);
        try {
          await setMemberDisabled(services, account.id, { key: { field: 'email', value: member.email }, source: 'ui' }, disabled);
        } catch (err) {
          // No free seat to reactivate: the reason on the member's page.
          if (!(err instanceof ApiError) || err.status !== 403) throw err;
          return editorPage(services, account, { member, values: formValuesOf(member), error: err.message }, 403);
        }
        return seeOther(`${BASE}/${member.id}?done=${disabled ? 'deactivated' : 'reactivated'}`);
      },
    }),
  ),
  definePage({
    method: 'get',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/members/:id/erase',
    params: MemberIdParams,
    async handler({ params }, { services, account }) {
      const member = await memberOf(services, account, params.id);
      const custom = await activeCustomFields(services, account.id);
      const reach = await erasureReach(services, account.id, member.id);
      return page({
        title: `Erase ${nameOf(member)}`,
        view: 'directory-erase',
        styles: ['directory.css'],
        member: { id: member.id, name: nameOf(member), email: member.email, employee_id: member.employee_id },
        customLabels: custom.filter((f) => member.custom_fields[f.field_key] !== undefined).map((f) => f.label),
        departments: member.departments.join(', '),
        reach,
      });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'directory', level: 'manage' },
    path: '/directory/members/:id/erase',
    audit: 'directory.erase_member',
    params: MemberIdParams,
    async handler({ params }, { services, account }) {
      const member = await memberOf(services, account, params.id);
      await eraseMember(services, account.id, { key: { field: 'email', value: member.email }, source: 'ui' });
      return seeOther(`${BASE}?done=erased`);
    },
  }),
];
