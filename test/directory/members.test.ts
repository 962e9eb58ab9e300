import { expect } from 'chai';
import type { Sequelize } from 'sequelize';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { outboxEvents } from '../helpers/directory.ts';
import { eventually } from '../helpers/eventually.ts';
import { extraApp, testStack, type ExtraApp, type TestStack } from '../helpers/stack.ts';

type Member = Record<string, unknown> & { id: number; email: string; disabled: number; updatedat: string };

// Every row of every table as text, to look for a person's data after erasure.
async function everyRow(sequelize: Sequelize): Promise<Array<{ table: string; row: string }>> {
  const names = (await sequelize.getQueryInterface().showAllTables()) as Array<string | { tableName: string }>;
  const rows: Array<{ table: string; row: string }> = [];
  for (const name of names.map((t) => (typeof t === 'string' ? t : t.tableName))) {
    const [found] = await sequelize.query(`SELECT * FROM ${sequelize.getQueryInterface().quoteIdentifier(name)}`);
    for (const row of found) rows.push({ table: name, row: JSON.stringify(row) });
  }
  return rows;
}

describe('directory: find, deactivate, reactivate, delete, seats', function () {
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
  const upsert = async (body: Record<string, unknown>, url = stack.url) =>
    (expectSuccess(await apiClient(url, account.liveKey).api('POST', '/pub/team-member-actions/upsert', body)) as { action: string; member: Member }).member;
  const events = () => outboxEvents(stack.models, account.accountId);

  describe('find', () => {
    it('finds by email (any case) or employee_id, deactivated members included; data is {} when none matches', async () => {
      const member = await upsert({ email: 'find@example.com', employee_id: 'F-1', date_of_birth: '1985-07-04' });
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?email=FIND@example.com'))).to.deep.equal(member);
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?employee_id=F-1'))).to.deep.include({ id: member.id, date_of_birth: '1985-07-04' });
      await api('POST', '/pub/team-member-actions/deactivate', { email: 'find@example.com' });
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?employee_id=F-1'))).to.deep.include({ id: member.id, disabled: 1 });
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?email=nobody@example.com'))).to.deep.equal({});
    });

    it('takes exactly one of email / employee_id (else 400) and needs directory: view', async () => {
      expectFailure(await api('GET', '/pub/team-member-actions/find'), 400, 'invalid_parameter');
      expectFailure(await api('GET', '/pub/team-member-actions/find?email=a@example.com&employee_id=A'), 400, 'invalid_parameter');
      expectFailure(await api('GET', '/pub/team-member-actions/find?email=not-an-email'), 400, 'invalid_parameter');
      const widgetsOnly = await newKey(stack.models, account.accountId, { widgets: 'manage' });
      expectFailure(await api('GET', '/pub/team-member-actions/find?email=a@example.com', undefined, widgetsOnly.key), 403, 'key_out_of_scope');
      const viewer = await newKey(stack.models, account.accountId, { directory: 'view' });
      expectSuccess(await api('GET', '/pub/team-member-actions/find?email=a@example.com', undefined, viewer.key));
      expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'a@example.com' }, viewer.key), 403, 'key_out_of_scope');
      expectFailure(await api('POST', '/pub/team-member-actions/deactivate', { email: 'a@example.com' }, viewer.key), 403, 'key_out_of_scope');
      expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(0);
    });
  });

  describe('deactivate and reactivate', () => {
    it('deactivation emits team_member_deactivated; reactivation team_member_updated with changed_fields ["disabled"]; repeats emit nothing', async () => {
      const member = await upsert({ email: 'cycle@example.com', employee_id: 'C-1' });
      const off = expectSuccess(await api('POST', '/pub/team-member-actions/deactivate', { employee_id: 'C-1' })) as Member;
      expect(off).to.deep.include({ id: member.id, disabled: 1 });
      const offAgain = expectSuccess(await api('POST', '/pub/team-member-actions/deactivate', { email: 'cycle@example.com' })) as Member;
      expect(offAgain).to.deep.equal(off);
      const on = expectSuccess(await api('POST', '/pub/team-member-actions/reactivate', { email: 'cycle@example.com', source: 'zapier' })) as Member;
      expect(on).to.deep.include({ id: member.id, disabled: 0 });
      expect(expectSuccess(await api('POST', '/pub/team-member-actions/reactivate', { employee_id: 'C-1' }))).to.deep.equal(on);

      const recorded = await events();
      expect(recorded.map((e) => e.type)).to.deep.equal(['team_member_created', 'team_member_deactivated', 'team_member_updated']);
      expect(recorded[1]!.body).not.to.have.property('changed_fields');
      expect(recorded[1]!.body.member).to.deep.include({ id: member.id, disabled: 1, updatedat: off.updatedat });
      expect(recorded[2]!.body).to.deep.include({ changed_fields: ['disabled'], source: 'zapier' });
      expect(recorded[2]!.body.member).to.deep.include({ disabled: 0 });
    });

    it('an upsert of a deactivated member updates it and leaves it deactivated', async () => {
      await upsert({ email: 'quiet@example.com' });
      await api('POST', '/pub/team-member-actions/deactivate', { email: 'quiet@example.com' });
      const updated = expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: 'quiet@example.com', first_name: 'Q' })) as { action: string; member: Member };
      expect(updated.action).to.equal('updated');
      expect(updated.member.disabled).to.equal(1);
    });

    it('404 for a member that does not exist or is another account\'s; 400 without exactly one key', async () => {
      await upsert({ email: 'mine@example.com' });
      const other = await newAccount(stack.models);
      for (const path of ['/deactivate', '/reactivate', '/delete']) {
        expectFailure(await api('POST', `/pub/team-member-actions${path}`, { email: 'nobody@example.com' }), 404, 'not_found');
        expectFailure(await api('POST', `/pub/team-member-actions${path}`, { email: 'mine@example.com' }, other.liveKey), 404, 'not_found');
        expectFailure(await api('POST', `/pub/team-member-actions${path}`, {}), 400, 'invalid_parameter');
        expectFailure(await api('POST', `/pub/team-member-actions${path}`, { email: 'mine@example.com', employee_id: 'X' }), 400, 'invalid_parameter');
      }
      expect(await stack.models.TeamMember.findOne({ where: { account_id: account.accountId, email: 'mine@example.com' } })).to.deep.include({ disabled: false });
      expect((await events()).length).to.equal(1);
    });
  });

  describe('seats', () => {
    let app: ExtraApp;
    before(async () => {
      app = await extraApp({ env: { PLAN_SEATS: 'free=3,pro=250,enterprise=5000' } });
    });

    it('creating an active member needs a free seat; deactivated members do not count; reactivation needs one too', async () => {
      for (const n of [1, 2, 3]) await upsert({ email: `s${n}@example.com` }, app.url);
      const full = expectFailure(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 's4@example.com' }), 403, 'seat_limit_reached');
      expect(full[0]).to.match(/3 seats/);
      // The dry run answers the same.
      expectFailure(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 's4@example.com', dry_run: true }), 403, 'seat_limit_reached');
      // Updating an existing member needs no seat.
      expect((expectSuccess(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 's1@example.com', first_name: 'One' })) as { action: string }).action).to.equal('updated');

      expectSuccess(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/deactivate', { email: 's1@example.com' }));
      await upsert({ email: 's4@example.com' }, app.url);
      expectFailure(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/reactivate', { email: 's1@example.com' }), 403, 'seat_limit_reached');
      expect(await stack.models.TeamMember.findOne({ where: { account_id: account.accountId, email: 's1@example.com' } })).to.deep.include({ disabled: true });
      expectSuccess(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/delete', { email: 's2@example.com' }));
      expect(expectSuccess(await apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/reactivate', { email: 's1@example.com' }))).to.deep.include({ disabled: 0 });
      expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(3);
      expect((await events()).filter((e) => e.type === 'team_member_created')).to.have.length(4);
    });

    it('two members racing for the last seat: one gets it, the other is refused', async () => {
      await upsert({ email: 'r1@example.com' }, app.url);
      await upsert({ email: 'r2@example.com' }, app.url);
      const [a, b] = await Promise.all([
        apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 'racer-a@example.com' }),
        apiClient(app.url, account.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 'racer-b@example.com' }),
      ]);
      expect([a.status, b.status].sort()).to.deep.equal([200, 403]);
      expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId, disabled: false } })).to.equal(3);
      expect((await events()).filter((e) => e.type === 'team_member_created')).to.have.length(3);
    });
  });

  it('concurrent upserts of one new person create one member and one team_member_created event', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api('POST', '/pub/team-member-actions/upsert', { email: 'same@example.com', first_name: 'Same', ...(i % 2 ? { source: 'zapier' } : {}) })),
    );
    for (const res of answers) expectSuccess(res);
    const actions = answers.map((r) => (r.body.data as { action: string }).action).sort();
    expect(actions).to.deep.equal(['created', 'unchanged', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(1);
    expect((await events()).map((e) => e.type)).to.deep.equal(['team_member_created']);
  });

  describe('delete (erasure)', () => {
    it('removes the member\'s personal data from every table but events awaiting delivery, which are redacted once delivered', async () => {
      await addCustomField(stack, { accountId: account.accountId, key: 'visa_expiry', label: 'Visa', required: false });
      const manager = await upsert({ email: 'zelda.erasable@example.com', employee_id: 'ZZ-991', first_name: 'Zeldaname', last_name: 'Quuxsurname', job_position: 'Chief Unicorn', departments: ['Erasure Team'], date_of_birth: '1977-03-14', hire_date: '2011-11-11', profile_image_url: 'https://example.com/zelda-face.png', custom_fields: { visa_expiry: '2031-02-03' } });
      await upsert({ email: 'zelda.erasable@example.com', job_position: 'Chief Unicorn II' });
      await api('POST', '/pub/team-member-actions/deactivate', { email: 'zelda.erasable@example.com' });
      const report = await upsert({ email: 'report@example.com', manager_email: 'zelda.erasable@example.com' });

      const deleted = expectSuccess(await api('POST', '/pub/team-member-actions/delete', { employee_id: 'ZZ-991' }));
      expect(deleted).to.deep.equal({ deleted: [manager.id] });

      const personal = ['zelda.erasable', 'ZZ-991', 'Zeldaname', 'Quuxsurname', 'Chief Unicorn', '1977-03-14', '1800-03-14', '2011-11-11', 'zelda-face', '2031-02-03'];
      const leaks = async () => (await everyRow(stack.models.sequelize)).filter(({ row }) => personal.some((p) => row.includes(p)));
      // Right after the erasure, only events still awaiting delivery hold personal data (the delete event's
      // id, email and employee_id, and earlier events not drained yet), each marked for redaction.
      const recorded = await events();
      const deleteEvent = recorded.find((e) => e.type === 'team_member_deleted')!;
      expect(deleteEvent.body.member).to.deep.equal({ id: manager.id, email: 'zelda.erasable@example.com', employee_id: 'ZZ-991' });
      expect(Object.keys(deleteEvent.body)).to.deep.equal(['event_id', 'event_type', 'timestamp', 'source', 'member']);
      const awaiting = await stack.models.OutboxEvent.findAll({ where: { account_id: account.accountId, member_id: manager.id } });
      for (const { table, row } of await leaks()) {
        expect(table).to.equal('event_outbox');
        const event = awaiting.find((e) => row.includes(e.event_id))!;
        expect(event.redact_after_delivery, row).to.equal(true);
      }
      // Nothing is subscribed, so once drained every event of the member keeps only its id.
      await eventually(leaks, (l) => l.length === 0, 10_000);
      expect(await leaks()).to.deep.equal([]);
      const earlier = (await events()).filter((e) => e.memberId === manager.id);
      expect(earlier.map((e) => e.type)).to.deep.equal(['team_member_created', 'team_member_updated', 'team_member_deactivated', 'team_member_deleted']);
      for (const e of earlier) {
        expect(e.redacted).to.equal(true);
        expect(e.body.member).to.deep.equal({ id: manager.id });
      }
      // The report loses the link; the member is gone from find and the erasure cannot be repeated.
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?email=report@example.com'))).to.deep.include({ id: report.id, manager_email: null });
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/find?employee_id=ZZ-991'))).to.deep.equal({});
      expectFailure(await api('POST', '/pub/team-member-actions/delete', { employee_id: 'ZZ-991' }), 404, 'not_found');
      // The department itself is the account's, not the person's.
      const departments = expectSuccess(await api('GET', '/pub/team-member-actions/departments')) as Array<{ name: string; members: number }>;
      expect(departments.map((d) => [d.name, d.members])).to.deep.equal([['Erasure Team', 0]]);
    });

    it('another account\'s events are untouched by an erasure', async () => {
      const other = await newAccount(stack.models);
      await upsert({ email: 'twin@example.com', first_name: 'Twin' });
      expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: 'twin@example.com', first_name: 'Twin' }, other.liveKey));
      expectSuccess(await api('POST', '/pub/team-member-actions/delete', { email: 'twin@example.com' }));
      const theirs = await outboxEvents(stack.models, other.accountId);
      expect(theirs.map((e) => [e.type, e.redacted])).to.deep.equal([['team_member_created', false]]);
      expect(theirs[0]!.body.member).to.deep.include({ first_name: 'Twin' });
    });
  });
});
