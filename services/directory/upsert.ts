// Upserting a member: match by email or employee_id, change only the fields sent, create departments by name,
// link the manager by email (now or when the manager arrives), and record the event of a real change.
// A dry run runs every rule and answers as the real call would, writing nothing.
// Upserts of one account run side by side (no account lock, issue 35 item 5): a create takes its seat with a
// conditional update, an update writes only the columns it changes and only if nobody changed the member since it
// was read; an upsert that lost a race (the member changed, or another created the same person or department
// first) runs again from the start in a new transaction, and so sees what the winner committed.
import { DatabaseError, Op, UniqueConstraintError, type Transaction } from 'sequelize';
import { writeTransaction } from '../../lib/db.ts';
import { invalidManager, memberConflict, missingField, notFound, requireFields, serviceUnavailable } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { CustomField } from '../../models/CustomField.ts';
import type { TeamMember } from '../../models/TeamMember.ts';
import { eventMember, recordMemberEvent, type EventSource } from './events.ts';
import { shareAccount } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { assertSeatFree, takeSeat } from './seats.ts';
import { loadView, memberView, sortKeys, sortNames, type MemberState, type MemberView } from './view.ts';

/** The fields an upsert sets, in the order changes are reported; a field sent as null clears it. */
export const SCALAR_FIELDS = ['email', 'employee_id', 'first_name', 'last_name', 'job_position', 'date_of_birth', 'hire_date', 'profile_image_url', 'timezone'] as const;
type ScalarField = (typeof SCALAR_FIELDS)[number];
const FIELD_ORDER = ['email', 'employee_id', 'first_name', 'last_name', 'job_position', 'departments', 'date_of_birth', 'hire_date', 'profile_image_url', 'manager_email', 'timezone'] as const;

export type MatchField = 'email' | 'employee_id';

/** Normalized input: emails lower-cased, strings trimmed, zones canonical, `""` already turned into null, departments deduplicated. */
export type MemberFieldsInput = Partial<Record<ScalarField | 'manager_email', string | null>> & {
  departments?: string[];
  custom_fields?: Record<string, string | null>;
};

export interface UpsertRequest {
  fields: MemberFieldsInput;
  matchField: MatchField;
  dryRun: boolean;
  source: EventSource;
  /** Body fields the endpoint does not know, reported back. */
  ignored: string[];
  /** The member to update by its id (the console's editor, where the email itself may change): no match by field. */
  memberId?: number;
}

export interface UpsertResult {
  action: 'created' | 'updated' | 'unchanged';
  member: MemberView;
  changed_fields: string[];
  ignored_fields: string[];
  dry_run: boolean;
}

const conflict = (field: string, value: string) =>
  memberConflict(`${field}: another member of this account already has ${JSON.stringify(value)}`);

export async function findMemberBy(ctx: Pick<ServiceContext, 'models'>, accountId: number, field: MatchField, value: string, transaction?: Transaction): Promise<TeamMember | null> {
  const { models } = ctx;
  return models.TeamMember.findOne({ where: { account_id: accountId, [field]: value }, ...(transaction ? { transaction } : {}) });
}

// With match_field=employee_id and no member holding that id, a member with the same email and no employee_id
// yet is the same person (added before the integration sent ids): it is adopted instead of a conflict.
// `lock` (a run after a lost race, MySQL): the member's row is read locked, so this run waits for the other writes
// of that member instead of losing to them again. Not on a first run: a locking read of a key nobody holds yet
// locks the gap, where concurrent creates of other people would deadlock.
async function findMatch(ctx: Pick<ServiceContext, 'models'>, accountId: number, request: UpsertRequest, transaction: Transaction, lock: boolean): Promise<TeamMember | null> {
  const { models } = ctx;
  const { fields, matchField } = request;
  const locked = lock && models.sequelize.getDialect() !== 'sqlite' ? { lock: transaction.LOCK.UPDATE } : {};
  const find = (where: { id?: number; email?: string; employee_id?: string }) =>
    models.TeamMember.findOne({ where: { account_id: accountId, ...where }, transaction, ...locked });
  if (request.memberId !== undefined) {
    const member = await find({ id: request.memberId });
    if (!member) throw notFound(`No team member ${request.memberId}`);
    return member;
  }
  const found = await find({ [matchField]: fields[matchField]! });
  if (found || matchField === 'email' || !fields.email) return found;
  const byEmail = await find({ email: fields.email });
  return byEmail && byEmail.employee_id === null ? byEmail : null;
}

/** Department names as the directory spells them (an existing department keeps its name's case). */
async function departmentNames(ctx: Pick<ServiceContext, 'models'>, accountId: number, names: string[], transaction: Transaction): Promise<string[]> {
  const { models } = ctx;
  if (names.length === 0) return [];
  const existing = await models.Department.findAll({ where: { account_id: accountId, name_key: names.map((n) => n.toLowerCase()) }, transaction });
  const byKey = new Map(existing.map((d) => [d.name_key, d.name]));
  return sortNames(names.map((n) => byKey.get(n.toLowerCase()) ?? n));
}

const sameSet = (a: string[], b: string[]) => a.map((n) => n.toLowerCase()).join('\n') === b.map((n) => n.toLowerCase()).join('\n');

/** Field names whose value differs (`custom_fields.<key>` for custom dates); on create, the fields given a value. */
function changedFields(current: MemberState | null, next: MemberState): string[] {
  const empty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);
  const changed: string[] = FIELD_ORDER.filter((field) => {
    if (!current) return !empty(next[field]);
    if (field === 'departments') return !sameSet(current.departments, next.departments);
    return current[field] !== next[field];
  });
  const keys = [...new Set([...Object.keys(current?.custom_fields ?? {}), ...Object.keys(next.custom_fields)])].sort();
  for (const key of keys) if (current?.custom_fields[key] !== next.custom_fields[key]) changed.push(`custom_fields.${key}`);
  return changed;
}

const EMPTY_STATE: MemberState = {
  email: '',
  employee_id: null,
  first_name: null,
  last_name: null,
  job_position: null,
  departments: [],
  date_of_birth: null,
  hire_date: null,
  profile_image_url: null,
  manager_email: null,
  timezone: null,
  custom_fields: {},
};

export interface Plan {
  member: TeamMember | null;
  current: MemberView | null;
  next: MemberState;
  changed: string[];
  ignored: string[];
  /** The account's active custom fields, read once for the plan and its write. */
  customFields: CustomField[];
}

// Every rule, reading only: the match, the next state, conflicts, required fields, the manager and (a dry run's)
// seat; a real create takes its seat in applyPlan, after its writes.
export async function planUpsert(ctx: ServiceContext, account: Account, request: UpsertRequest, transaction: Transaction, lockMember = false): Promise<Plan> {
  const { models } = ctx;
  const { fields } = request;
  const member = await findMatch(ctx, account.id, request, transaction, lockMember);
  const customFields = await models.CustomField.findAll({ where: { account_id: account.id, active: true }, transaction });
  const current = member ? await loadView(ctx, member, transaction, customFields) : null;

  const ignored = [...request.ignored];
  const custom = { ...current?.custom_fields };
  for (const [key, value] of Object.entries(fields.custom_fields ?? {})) {
    if (!customFields.some((f) => f.field_key === key)) ignored.push(`custom_fields.${key}`);
    else if (value === null) delete custom[key];
    else custom[key] = value;
  }
  const next: MemberState = { ...(current ?? EMPTY_STATE), custom_fields: sortKeys(custom) };
  for (const field of [...SCALAR_FIELDS, 'manager_email'] as const) if (fields[field] !== undefined) Object.assign(next, { [field]: fields[field] });
  if (fields.departments !== undefined) next.departments = await departmentNames(ctx, account.id, fields.departments, transaction);

  const required: Record<string, unknown> = { email: next.email };
  for (const f of customFields) {
    // A required custom date is needed on create; an update may leave it unset but not clear it.
    if (f.required && (!current || fields.custom_fields?.[f.field_key] !== undefined)) required[`custom_fields.${f.field_key}`] = next.custom_fields[f.field_key];
  }
  requireFields(required);

  for (const field of ['email', 'employee_id'] as const) {
    const value = next[field];
    if (value === null || value === current?.[field]) continue;
    const holder = await findMemberBy(ctx, account.id, field, value, transaction);
    if (holder && holder.id !== member?.id) throw conflict(field, value);
  }
  if (next.manager_email !== null && next.manager_email === next.email) {
    throw invalidManager('manager_email: a member cannot be its own manager');
  }
  if (!current && request.dryRun) await assertSeatFree(ctx, account, transaction);
  return { member, current, next, changed: changedFields(current, next), ignored, customFields };
}

async function saveDepartments(ctx: Pick<ServiceContext, 'models'>, account: Account, member: TeamMember, names: string[], transaction: Transaction) {
  const { models } = ctx;
  await models.MemberDepartment.destroy({ where: { member_id: member.id }, transaction });
  for (const name of names) {
    const key = name.toLowerCase();
    const department =
      (await models.Department.findOne({ where: { account_id: account.id, name_key: key }, transaction })) ??
      (await models.Department.create({ account_id: account.id, name, name_key: key }, { transaction }));
    await models.MemberDepartment.create({ member_id: member.id, department_id: department.id }, { transaction });
  }
}

async function saveCustomValues(ctx: Pick<ServiceContext, 'models'>, fields: CustomField[], member: TeamMember, values: Record<string, string>, transaction: Transaction) {
  const { models } = ctx;
  for (const field of fields) {
    const value = values[field.field_key];
    if (value === undefined) await models.MemberCustomValue.destroy({ where: { member_id: member.id, field_id: field.id }, transaction });
    else await models.MemberCustomValue.upsert({ member_id: member.id, field_id: field.id, value }, { transaction });
  }
}

// The manager named by email: linked now when in the directory, else remembered until that member arrives.
async function managerLink(ctx: Pick<ServiceContext, 'models'>, accountId: number, email: string | null, transaction: Transaction) {
  if (email === null) return { manager_id: null, pending_manager_email: null };
  const manager = await findMemberBy(ctx, accountId, 'email', email, transaction);
  return manager ? { manager_id: manager.id, pending_manager_email: null } : { manager_id: null, pending_manager_email: email };
}

/** The member changed (or was erased) after the plan read it: the upsert runs again. */
class MemberChanged extends Error {
  override name = 'MemberChanged';
}

/**
 * Writes the plan's changed columns (with `updated_at`, the member's version) only if the member is still as the
 * plan read it: a concurrent upsert of other fields is kept (no lost field), and the plan's changes and event stay
 * exact, since a plan that read an older version runs again.
 */
async function updateMember(ctx: Pick<ServiceContext, 'models'>, member: TeamMember, values: Partial<TeamMember['_creationAttributes']>, now: Date, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  // The version always moves on, even for two writes in one millisecond.
  const at = now > member.updated_at ? now : new Date(member.updated_at.getTime() + 1);
  // The email always (its own value when unchanged): Model.update skips a statement that would set `updated_at`
  // alone (a change of departments or custom dates only), and this statement is the version check.
  const changes = { email: member.email, ...values, updated_at: at };
  const [written] = await models.TeamMember.update(changes, { where: { id: member.id, updated_at: member.updated_at }, transaction, silent: true });
  if (written !== 1) throw new MemberChanged(`Team member ${member.id} changed while it was being upserted`);
  member.set(changes, { raw: true });
}

export async function applyPlan(ctx: ServiceContext, account: Account, request: UpsertRequest, plan: Plan, transaction: Transaction): Promise<MemberView> {
  const { models } = ctx;
  const { next, changed } = plan;
  const now = ctx.now();
  const manager = changed.includes('manager_email') ? await managerLink(ctx, account.id, next.manager_email, transaction) : {};
  let member = plan.member;
  if (!member) {
    const row = Object.fromEntries(SCALAR_FIELDS.map((f) => [f, next[f]])) as Record<ScalarField, string | null> & { email: string };
    member = await models.TeamMember.create(
      { account_id: account.id, ...row, manager_id: null, pending_manager_email: null, ...manager, disabled: false, created_at: now, updated_at: now },
      { transaction, silent: true },
    );
  } else {
    const columns = Object.fromEntries(SCALAR_FIELDS.filter((f) => changed.includes(f)).map((f) => [f, next[f]]));
    await updateMember(ctx, member, { ...columns, ...manager }, now, transaction);
  }
  if (changed.includes('departments')) await saveDepartments(ctx, account, member, next.departments, transaction);
  if (changed.some((f) => f.startsWith('custom_fields.'))) await saveCustomValues(ctx, plan.customFields, member, next.custom_fields, transaction);
  if (changed.includes('email')) {
    // Members who named this email as their manager before it was in the directory are linked now (no event).
    await models.TeamMember.update(
      { manager_id: member.id, pending_manager_email: null },
      { where: { account_id: account.id, pending_manager_email: member.email, id: { [Op.ne]: member.id } }, transaction, silent: true },
    );
  }
  // What was just written, read from no table: the member's row is this transaction's (updateMember checked its version).
  const view = memberView(member, next);
  // Bulk imports emit no member events (decisions: Directory).
  if (request.source !== 'import') {
    await recordMemberEvent(
      ctx,
      {
        accountId: account.id,
        type: plan.current ? 'team_member_updated' : 'team_member_created',
        source: request.source,
        at: now,
        member: eventMember({ ...view, id: member.id }),
        ...(plan.current ? { changedFields: changed } : {}),
      },
      transaction,
    );
  }
  // A new member's seat, last (seats.ts): 403 when none is free, and the transaction rolls the member back.
  if (!plan.current) await takeSeat(ctx, account, transaction);
  return view;
}

function wouldBe(plan: Plan, now: Date): MemberView {
  const { current, next, changed } = plan;
  return {
    ...next,
    id: current?.id ?? null,
    manager_id: current?.manager_id ?? null,
    disabled: current?.disabled ?? false,
    created_at: current?.created_at ?? now,
    updated_at: current && changed.length === 0 ? current.updated_at : now,
  };
}

/** Runs of an upsert that lost a race before it gives up (the second and later lock the member: rarely needed). */
const UPSERT_ATTEMPTS = 5;

/** A race lost: the member changed, a concurrent insert took its key first, or MySQL chose it as a deadlock's victim. */
function lostRace(err: unknown): boolean {
  if (err instanceof MemberChanged || err instanceof UniqueConstraintError) return true;
  return err instanceof DatabaseError && (err.parent as { code?: string } | undefined)?.code === 'ER_LOCK_DEADLOCK';
}

function upsertOnce(ctx: ServiceContext, accountId: number, request: UpsertRequest, rerun: boolean): Promise<UpsertResult> {
  return writeTransaction(ctx.models.sequelize, async (transaction) => {
    const account = await shareAccount(ctx, accountId, transaction);
    if (!account) throw notFound(`No account with id ${accountId}`);
    const plan = await planUpsert(ctx, account, request, transaction, rerun);
    const action = !plan.current ? 'created' : plan.changed.length ? 'updated' : 'unchanged';
    const answer = { action, changed_fields: plan.changed, ignored_fields: plan.ignored, dry_run: request.dryRun } as const;
    if (request.dryRun || action === 'unchanged') return { ...answer, member: plan.current && action === 'unchanged' ? plan.current : wouldBe(plan, ctx.now()) };
    return { ...answer, member: await applyPlan(ctx, account, request, plan, transaction) };
  });
}

export async function upsertMember(ctx: ServiceContext, accountId: number, request: UpsertRequest): Promise<UpsertResult> {
  const matchValue = request.fields[request.matchField];
  if (!matchValue && request.memberId === undefined) throw missingField(`${request.matchField} is required (match_field is ${request.matchField})`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await upsertOnce(ctx, accountId, request, attempt > 1);
    } catch (err) {
      // Run again: the next plan sees the winner's commit (the same person now exists: an update, or unchanged).
      if (attempt < UPSERT_ATTEMPTS && lostRace(err)) continue;
      // Still a duplicate after the runs again (a write from elsewhere): the conflict it is.
      if (err instanceof UniqueConstraintError) {
        const field = Object.keys(err.fields ?? {}).find((f) => f === 'email' || f === 'employee_id') ?? 'email';
        throw conflict(field, String(request.fields[field] ?? ''));
      }
      if (lostRace(err)) throw serviceUnavailable('The directory is being changed by many calls at once; try again');
      throw err;
    }
  }
}
