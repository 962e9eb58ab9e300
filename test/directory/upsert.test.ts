import { expect } from 'chai';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { outboxEvents } from '../helpers/directory.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Member = Record<string, unknown> & { id: number; email: string; departments: string[]; updatedat: string };
type Answer = { action: string; member: Member; changed_fields: string[]; ignored_fields: string[]; dry_run: boolean };

describe('directory: upsert', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const upsert = async (body: Record<string, unknown>) => expectSuccess(await api('POST', '/pub/team-member-actions/upsert', body)) as Answer;
  const events = () => outboxEvents(stack.models, account.accountId);

  it('creates a member with normalized fields and records one team_member_created event in the outbox', async () => {
    const answer = await upsert({
      email: '  Ada.Lovelace@Example.COM ',
      employee_id: 'E-1',
      first_name: ' Ada ',
      last_name: 'Lovelace',
      job_position: 'Analyst',
      departments: ['Engineering', 'research', 'engineering', ' '],
      date_of_birth: '1990-12-10',
      hire_date: '2020-01-06',
      profile_image_url: 'https://example.com/ada.png',
    });
    expect(answer.action).to.equal('created');
    expect(answer.dry_run).to.equal(false);
    expect(answer.ignored_fields).to.deep.equal([]);
    expect(answer.changed_fields).to.deep.equal(['email', 'employee_id', 'first_name', 'last_name', 'job_position', 'departments', 'date_of_birth', 'hire_date', 'profile_image_url']);
    expect(answer.member).to.deep.include({
      email: 'ada.lovelace@example.com',
      employee_id: 'E-1',
      first_name: 'Ada',
      departments: ['Engineering', 'research'],
      date_of_birth: '1990-12-10',
      manager_email: null,
      custom_fields: {},
      disabled: 0,
    });
    const row = await stack.models.TeamMember.findByPk(answer.member.id);
    expect(row).to.deep.include({ account_id: account.accountId, email: 'ada.lovelace@example.com', disabled: false });

    const recorded = await events();
    expect(recorded).to.have.length(1);
    const [event] = recorded;
    expect(event!.type).to.equal('team_member_created');
    expect(event!.body.event_id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(event!.body).to.deep.include({ event_type: 'team_member_created', source: 'api' });
    expect(event!.body).not.to.have.property('changed_fields');
    expect(event!.body.member).to.deep.equal({
      id: answer.member.id,
      email: 'ada.lovelace@example.com',
      employee_id: 'E-1',
      first_name: 'Ada',
      last_name: 'Lovelace',
      job_position: 'Analyst',
      departments: ['Engineering', 'research'],
      date_of_birth: '1800-12-10',
      hire_date: '2020-01-06',
      profile_image_url: 'https://example.com/ada.png',
      timezone: null,
      disabled: 0,
      updatedat: answer.member.updatedat,
    });
    expect(new Date(event!.body.timestamp).toISOString()).to.equal(event!.body.timestamp);
  });

  it('changes only the fields sent, clears with "" / null / [], and reports changed_fields in the event', async () => {
    const created = await upsert({ email: 'b@example.com', first_name: 'Bo', last_name: 'Bell', job_position: 'Chef', departments: ['Kitchen'] });
    const updated = await upsert({ email: 'B@example.com', first_name: 'Bob', job_position: '', departments: [], last_name: null });
    expect(updated.action).to.equal('updated');
    expect(updated.changed_fields).to.deep.equal(['first_name', 'last_name', 'job_position', 'departments']);
    expect(updated.member).to.deep.include({ id: created.member.id, first_name: 'Bob', last_name: null, job_position: null, departments: [] });
    const recorded = await events();
    expect(recorded.map((e) => e.type)).to.deep.equal(['team_member_created', 'team_member_updated']);
    expect(recorded[1]!.body.changed_fields).to.deep.equal(['first_name', 'last_name', 'job_position', 'departments']);
    expect(recorded[1]!.body.member).to.deep.include({ first_name: 'Bob', last_name: null, job_position: null, departments: [] });
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(1);
  });

  it('an identical re-sync answers "unchanged", keeps updatedat and emits nothing (departments compare as a set, any case)', async () => {
    const body = { email: 'c@example.com', first_name: 'Cy', departments: ['Ops', 'Sales'], hire_date: '2019-05-01' };
    const created = await upsert(body);
    const again = await upsert({ ...body, email: 'C@EXAMPLE.com', departments: ['sales', 'OPS', 'Sales'] });
    expect(again).to.deep.include({ action: 'unchanged', changed_fields: [] });
    expect(again.member).to.deep.equal(created.member);
    expect((await events()).map((e) => e.type)).to.deep.equal(['team_member_created']);
  });

  it('creates departments by name once, matching existing names case-insensitively', async () => {
    await upsert({ email: 'd1@example.com', departments: ['Customer Success'] });
    const second = await upsert({ email: 'd2@example.com', departments: ['customer success', 'Finance'] });
    expect(second.member.departments).to.deep.equal(['Customer Success', 'Finance']);
    const departments = expectSuccess(await api('GET', '/pub/team-member-actions/departments')) as Array<{ name: string; members: number }>;
    expect(departments.map((d) => [d.name, d.members])).to.deep.equal([
      ['Customer Success', 2],
      ['Finance', 1],
    ]);
  });

  it('match_field=employee_id: a changed email updates the same person, without a duplicate', async () => {
    const created = await upsert({ email: 'old@example.com', employee_id: 'E-42', first_name: 'Eve' });
    const moved = await upsert({ match_field: 'employee_id', employee_id: 'E-42', email: 'new@example.com' });
    expect(moved).to.deep.include({ action: 'updated', changed_fields: ['email'] });
    expect(moved.member).to.deep.include({ id: created.member.id, email: 'new@example.com', first_name: 'Eve' });
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(1);
    const [, updated] = await events();
    expect(updated!.body).to.deep.include({ event_type: 'team_member_updated', changed_fields: ['email'] });
    // Matching by email with the old address now creates a new member.
    expect((await upsert({ email: 'old@example.com' })).action).to.equal('created');
  });

  it('match_field=employee_id adopts a member with the same email that has no employee_id yet', async () => {
    const created = await upsert({ email: 'f@example.com' });
    const adopted = await upsert({ match_field: 'employee_id', employee_id: 'E-7', email: 'f@example.com' });
    expect(adopted).to.deep.include({ action: 'updated', changed_fields: ['employee_id'] });
    expect(adopted.member.id).to.equal(created.member.id);
  });

  it('links the manager by email, now or on the later upsert that creates the manager (no event for the link)', async () => {
    const boss = await upsert({ email: 'boss@example.com' });
    const report = await upsert({ email: 'r1@example.com', manager_email: 'BOSS@example.com' });
    expect(report.member.manager_email).to.equal('boss@example.com');
    expect((await stack.models.TeamMember.findByPk(report.member.id))!.manager_id).to.equal(boss.member.id);

    const early = await upsert({ email: 'r2@example.com', manager_email: 'later@example.com' });
    expect(early.member.manager_email).to.equal('later@example.com');
    expect(await stack.models.TeamMember.findByPk(early.member.id)).to.deep.include({ manager_id: null, pending_manager_email: 'later@example.com' });
    const before = (await events()).length;
    const manager = await upsert({ email: 'later@example.com', first_name: 'Late' });
    expect(await stack.models.TeamMember.findByPk(early.member.id)).to.deep.include({ manager_id: manager.member.id, pending_manager_email: null });
    const after = await events();
    expect(after.slice(before).map((e) => e.type)).to.deep.equal(['team_member_created']);
    // The link follows the manager's email when it changes.
    await upsert({ match_field: 'employee_id', employee_id: 'M-1', email: 'later@example.com' });
    await upsert({ match_field: 'employee_id', employee_id: 'M-1', email: 'renamed@example.com' });
    const found = expectSuccess(await api('GET', `/pub/team-member-actions/find?email=r2@example.com`)) as Member;
    expect(found.manager_email).to.equal('renamed@example.com');
    expect(found.updatedat).to.equal(early.member.updatedat);
  });

  it('refuses a member as its own manager (422) and writes nothing', async () => {
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'self@example.com', manager_email: 'Self@example.com' }), 422, 'invalid_manager');
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await events()).to.deep.equal([]);
  });

  it('dry_run applies every rule, answers as the real call would, and saves nothing', async () => {
    const wouldCreate = await upsert({ email: 'dry@example.com', first_name: 'Dee', departments: ['Brand New Dept'], dry_run: true, extra: 1 });
    expect(wouldCreate).to.deep.include({ action: 'created', dry_run: true, ignored_fields: ['extra'] });
    expect(wouldCreate.member).to.deep.include({ id: null, email: 'dry@example.com', first_name: 'Dee', departments: ['Brand New Dept'], disabled: 0 });
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.Department.count({ where: { account_id: account.accountId } })).to.equal(0);

    const created = await upsert({ email: 'dry@example.com', first_name: 'Dee' });
    const wouldUpdate = await upsert({ email: 'dry@example.com', first_name: 'Dora', dry_run: 'true' });
    expect(wouldUpdate).to.deep.include({ action: 'updated', changed_fields: ['first_name'], dry_run: true });
    expect(wouldUpdate.member).to.deep.include({ id: created.member.id, first_name: 'Dora' });
    const wouldNot = await upsert({ email: 'dry@example.com', first_name: 'Dee', dry_run: 1 });
    expect(wouldNot).to.deep.include({ action: 'unchanged', dry_run: true });
    expect((await stack.models.TeamMember.findByPk(created.member.id))!.first_name).to.equal('Dee');
    expect((await events()).map((e) => e.type)).to.deep.equal(['team_member_created']);
    // A dry run fails as the real call would.
    await upsert({ email: 'taken@example.com', employee_id: 'T-1' });
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'dry@example.com', employee_id: 'T-1', dry_run: true }), 422, 'member_conflict');
  });

  it('lists unknown body fields in ignored_fields; upsert never sets disabled', async () => {
    const answer = await upsert({ email: 'g@example.com', disabled: 1, nickname: 'G' });
    expect(answer.ignored_fields).to.deep.equal(['disabled', 'nickname']);
    expect(answer.member.disabled).to.equal(0);
  });

  it('source "zapier" marks the event; another source is 400', async () => {
    await upsert({ email: 'z@example.com', source: 'zapier' });
    expect((await events())[0]!.body.source).to.equal('zapier');
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'z2@example.com', source: 'ui' }), 400, 'invalid_parameter');
  });

  it('a change that would take another member\'s email or employee_id is 422 naming the field, writing nothing', async () => {
    await upsert({ email: 'h1@example.com', employee_id: 'H-1' });
    await upsert({ email: 'h2@example.com', employee_id: 'H-2' });
    const count = (await events()).length;
    const idTaken = expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'h2@example.com', employee_id: 'H-1' }), 422, 'member_conflict');
    expect(idTaken[0]).to.match(/^employee_id: /);
    const emailTaken = expectFailure(await api('POST', '/pub/team-member-actions/upsert', { match_field: 'employee_id', employee_id: 'H-2', email: 'h1@example.com' }), 422, 'member_conflict');
    expect(emailTaken[0]).to.match(/^email: /);
    // A new employee_id whose email belongs to a member with another employee_id.
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { match_field: 'employee_id', employee_id: 'H-3', email: 'h1@example.com' }), 422, 'member_conflict');
    expect((await events()).length).to.equal(count);
    expect((await stack.models.TeamMember.findOne({ where: { account_id: account.accountId, email: 'h2@example.com' } }))!.employee_id).to.equal('H-2');
  });

  it('employee_ids are case-sensitive identifiers', async () => {
    await upsert({ email: 'i1@example.com', employee_id: 'abc' });
    expect((await upsert({ email: 'i2@example.com', employee_id: 'ABC' })).action).to.equal('created');
  });

  it('bad input: invalid email, bad dates, unknown match_field, wrong types → 400; missing keys → 422; nothing written', async () => {
    const bad: Array<[Record<string, unknown>, number, string]> = [
      [{ email: 'not-an-email' }, 400, 'email'],
      [{ email: 'j@example.com', date_of_birth: '1990-02-30' }, 400, 'date_of_birth'],
      [{ email: 'j@example.com', hire_date: '12/01/2020' }, 400, 'hire_date'],
      [{ email: 'j@example.com', date_of_birth: 19900101 }, 400, 'date_of_birth'],
      [{ email: 'j@example.com', match_field: 'first_name' }, 400, 'match_field'],
      [{ email: 'j@example.com', departments: 'Sales' }, 400, 'departments'],
      [{ email: 'j@example.com', first_name: 5 }, 400, 'first_name'],
      [{ email: 'j@example.com', profile_image_url: 'ftp://example.com/a.png' }, 400, 'profile_image_url'],
      [{ email: 'j@example.com', manager_email: 'nobody' }, 400, 'manager_email'],
      [{ email: 'j@example.com', custom_fields: { start: '2020-13-01' } }, 400, 'custom_fields.start'],
      [{ email: 'j@example.com', dry_run: 'maybe' }, 400, 'dry_run'],
      [{ first_name: 'No email' }, 422, 'email'],
      [{ email: '' }, 422, 'email'],
      [{ match_field: 'employee_id', email: 'j@example.com' }, 422, 'employee_id'],
      [{ match_field: 'employee_id', employee_id: 'J-1' }, 422, 'email'],
    ];
    for (const [body, status, field] of bad) {
      const messages = expectFailure(await api('POST', '/pub/team-member-actions/upsert', body), status, status === 400 ? 'invalid_parameter' : 'missing_field');
      expect(messages[0], JSON.stringify(body)).to.match(new RegExp(`^${field.replace('.', '\\.')}\\b`));
    }
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', undefined, account.liveKey), 422, 'missing_field');
    expectFailure(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, rawBody: '{"email":', headers: { 'Content-Type': 'application/json' } }), 400, 'malformed_json');
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await events()).to.deep.equal([]);
  });

  it('an update cannot clear the email (422)', async () => {
    await upsert({ email: 'k@example.com', employee_id: 'K-1' });
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { match_field: 'employee_id', employee_id: 'K-1', email: '' }), 422, 'missing_field');
  });

  describe('custom date fields', () => {
    it('sets, changes and clears custom dates; unknown keys are ignored; a required one is needed on create', async () => {
      await addCustomField(stack, { accountId: account.accountId, key: 'visa_expiry', label: 'Visa expiry', required: false });
      await addCustomField(stack, { accountId: account.accountId, key: 'start_date', label: 'Start date', required: true });
      const missing = expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'l@example.com', custom_fields: { visa_expiry: '2027-01-01' } }), 422, 'missing_field');
      expect(missing).to.deep.equal(['custom_fields.start_date is required']);
      expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(0);

      const created = await upsert({ email: 'l@example.com', custom_fields: { start_date: '2024-03-01', visa_expiry: '2027-01-01', shoe_size: '2020-01-01' } });
      expect(created.member.custom_fields).to.deep.equal({ start_date: '2024-03-01', visa_expiry: '2027-01-01' });
      expect(created.ignored_fields).to.deep.equal(['custom_fields.shoe_size']);
      const changed = await upsert({ email: 'l@example.com', custom_fields: { visa_expiry: '' } });
      expect(changed).to.deep.include({ action: 'updated', changed_fields: ['custom_fields.visa_expiry'] });
      expect(changed.member.custom_fields).to.deep.equal({ start_date: '2024-03-01' });
      expect((await events())[1]!.body.changed_fields).to.deep.equal(['custom_fields.visa_expiry']);
      expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'l@example.com', custom_fields: { start_date: null } }), 422, 'missing_field');
      // Updates that leave a required date out are fine.
      expect((await upsert({ email: 'l@example.com', first_name: 'Lu' })).action).to.equal('updated');
    });
  });

  it('another account never sees or matches this account\'s members', async () => {
    const other = await newAccount(stack.models);
    await upsert({ email: 'shared@example.com', employee_id: 'S-1', first_name: 'Mine' });
    const theirs = expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: 'shared@example.com', employee_id: 'S-1', first_name: 'Theirs' }, other.liveKey)) as Answer;
    expect(theirs.action).to.equal('created');
    expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?email=shared@example.com'))).to.deep.include({ first_name: 'Mine' });
    expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?email=shared@example.com', undefined, other.liveKey))).to.deep.include({ first_name: 'Theirs' });
    // Sandbox data is another account's too.
    expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?email=shared@example.com', undefined, account.sandboxKey))).to.deep.equal({});
  });
});
