import { expect } from 'chai';
import { addCustomField, deactivateCustomField } from '../../services/directory/custom-fields.ts';
import { listMembers } from '../../services/directory/members.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { seedMembers } from '../helpers/directory.ts';
import { extraApp, testStack, type TestStack } from '../helpers/stack.ts';

type Member = Record<string, unknown> & { id: number; email: string; disabled: number; updatedat: string };
type Page = { data: Member[]; meta: { next_after_id: number | null; has_more: boolean } };

describe('directory: list, fields, departments, sample', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const page = async (query: string, key = account.liveKey, url = stack.url): Promise<Page> => {
    const res = await apiClient(url, key).api('GET', `/pub/team-member-actions/list?${query}`);
    expectSuccess(res);
    return { data: res.body.data as Member[], meta: res.body.meta as Page['meta'] };
  };
  async function pullAll(query: string, url = stack.url): Promise<{ members: Member[]; pages: number }> {
    const members: Member[] = [];
    let after = 0;
    let pages = 0;
    for (;;) {
      const { data, meta } = await page(`${query}&after_id=${after}`, account.liveKey, url);
      pages += 1;
      members.push(...data);
      if (!meta.has_more) {
        expect(meta.next_after_id).to.equal(null);
        return { members, pages };
      }
      expect(meta.next_after_id).to.equal(data.at(-1)!.id);
      after = meta.next_after_id!;
    }
  }

  describe('list', () => {
    let seeded: TestAccount;
    const seededAt = new Date('2026-01-01T00:00:00.000Z');
    before(async () => {
      seeded = await newAccount(stack.models, 'enterprise');
      await seedMembers(stack.models, seeded.accountId, 2500, { at: seededAt, disabledEvery: 10 });
    });

    it('pages a few thousand members in id order with after_id until has_more is false, each once', async () => {
      account = seeded;
      const { members, pages } = await pullAll('status=all&perPage=500');
      expect(pages).to.equal(5);
      expect(members).to.have.length(2500);
      const ids = members.map((m) => m.id);
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).to.equal(2500);
      const active = await pullAll('perPage=300');
      expect(active.members).to.have.length(2250);
      expect(active.members.every((m) => m.disabled === 0)).to.equal(true);
      const deactivated = await pullAll('status=deactivated&perPage=500');
      expect(deactivated.members).to.have.length(250);
      expect(deactivated.members.every((m) => m.disabled === 1)).to.equal(true);
    });

    it('perPage defaults to 100; the last page has has_more false and next_after_id null', async () => {
      account = seeded;
      const first = await page('status=all');
      expect(first.data).to.have.length(100);
      expect(first.meta).to.deep.equal({ next_after_id: first.data[99]!.id, has_more: true });
      const maxId = (await stack.models.TeamMember.max<number, InstanceType<typeof stack.models.TeamMember>>('id', { where: { account_id: seeded.accountId } }));
      const last = await page(`status=all&after_id=${maxId - 1}`);
      expect(last.data.map((m) => m.id)).to.deep.equal([maxId]);
      expect(last.meta).to.deep.equal({ next_after_id: null, has_more: false });
      expect((await page(`status=all&after_id=${maxId}`)).data).to.deep.equal([]);
    });

    it('updated_since pulls the delta (inclusive, to the millisecond), deactivations included with status=all', async () => {
      let clock = new Date('2026-03-01T10:00:00.000Z');
      const app = await extraApp({ now: () => clock });
      account = seeded;
      const changed = expectSuccess(await apiClient(app.url, seeded.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 'm7@seed.example.com', first_name: 'Changed' })) as { member: Member };
      expect(changed.member.updatedat).to.equal('2026-03-01T10:00:00.000Z');
      clock = new Date('2026-03-01T10:00:00.001Z');
      expectSuccess(await apiClient(app.url, seeded.liveKey).api('POST', '/pub/team-member-actions/deactivate', { email: 'm8@seed.example.com' }));
      const created = expectSuccess(await apiClient(app.url, seeded.liveKey).api('POST', '/pub/team-member-actions/upsert', { email: 'new-one@seed.example.com' })) as { member: Member };

      const delta = await pullAll('status=all&perPage=2&updated_since=2026-03-01T10:00:00.000Z', app.url);
      expect(delta.members.map((m) => m.email)).to.deep.equal(['m7@seed.example.com', 'm8@seed.example.com', 'new-one@seed.example.com']);
      expect(delta.pages).to.equal(2);
      const later = await pullAll('status=all&updated_since=2026-03-01T10:00:00.001Z');
      expect(later.members.map((m) => m.id)).to.deep.equal([delta.members[1]!.id, created.member.id]);
      // Without status=all a delta pull shows only active members.
      expect((await pullAll('updated_since=2026-03-01T12:00:00.001%2B02:00')).members.map((m) => m.email)).to.deep.equal(['new-one@seed.example.com']);
    });

    it('never shows another account\'s members or erased ones', async () => {
      account = await newAccount(stack.models);
      await api('POST', '/pub/team-member-actions/upsert', { email: 'keep@example.com' });
      await api('POST', '/pub/team-member-actions/upsert', { email: 'erase@example.com' });
      await api('POST', '/pub/team-member-actions/delete', { email: 'erase@example.com' });
      const all = await pullAll('status=all');
      expect(all.members.map((m) => m.email)).to.deep.equal(['keep@example.com']);
    });

    it('bad input → 400: perPage 501 or 0, a bad status, after_id or updated_since', async () => {
      account = seeded;
      for (const query of ['perPage=501', 'perPage=0', 'status=enabled', 'after_id=-1', 'after_id=abc', 'updated_since=yesterday', 'updated_since=2026-02-30T00:00:00Z']) {
        const messages = expectFailure(await api('GET', `/pub/team-member-actions/list?${query}`), 400, 'invalid_parameter');
        expect(messages[0]).to.match(new RegExp(`^${query.split('=')[0]}`));
      }
      expect((await page('perPage=500')).data).to.have.length(500);
    });

    it('reads each page with an index range scan that starts at the cursor, without sorting (first page or last)', async () => {
      const { sequelize } = stack.models;
      const mysql = sequelize.getDialect() === 'mysql';
      // The SELECT the service itself issues, captured from Sequelize's log.
      const issued = async (status: 'all' | 'active') => {
        const logged: string[] = [];
        // Sequelize reads its logging option on every query (the option is not in its typings).
        const options = (sequelize as unknown as { options: { logging: unknown } }).options;
        const logging = options.logging;
        options.logging = (sql: string) => logged.push(sql);
        try {
          await listMembers(stack, seeded.accountId, { status, perPage: 100, afterId: 100_000, updatedSince: undefined });
        } finally {
          options.logging = logging;
        }
        return logged.find((sql) => sql.includes('FROM `team_members`'))!.replace(/^Executing \([^)]*\): /, '');
      };
      for (const status of ['all', 'active'] as const) {
        const sql = await issued(status);
        if (mysql) {
          const [plan] = (await sequelize.query(`EXPLAIN ${sql}`)) as [Array<{ type: string; key: string | null; Extra: string | null }>, unknown];
          expect(plan[0], sql).to.deep.include({ type: 'range', key: status === 'all' ? 'team_members_account_id' : 'team_members_account_status_id' });
          expect(plan[0]!.Extra ?? '').not.to.match(/filesort/);
        } else {
          const [plan] = (await sequelize.query(`EXPLAIN QUERY PLAN ${sql}`)) as [Array<{ detail: string }>, unknown];
          const detail = plan.map((p) => p.detail).join(' | ');
          expect(detail, sql).to.match(/SEARCH TeamMember USING INDEX team_members_account_(status_)?id \(account_id=\? (AND disabled=\? )?AND id>\?\)/);
          expect(detail).not.to.match(/TEMP B-TREE/);
        }
      }
    });
  });

  describe('fields', () => {
    it('lists every settable field with label, type, required and format, then the active custom date fields', async () => {
      account = await newAccount(stack.models);
      const builtIn = expectSuccess(await api('GET', '/pub/team-member-actions/fields')) as Array<Record<string, unknown>>;
      expect(builtIn.map((f) => f.key)).to.deep.equal(['email', 'employee_id', 'first_name', 'last_name', 'job_position', 'departments', 'date_of_birth', 'hire_date', 'profile_image_url', 'manager_email', 'timezone']);
      expect(builtIn[0]).to.deep.equal({ key: 'email', label: 'Email', type: 'string', required: true, format: 'email' });
      expect(builtIn.find((f) => f.key === 'hire_date')).to.deep.equal({ key: 'hire_date', label: 'Hire date', type: 'date', required: false, format: 'YYYY-MM-DD' });
      await addCustomField(stack, { accountId: account.accountId, key: 'visa_expiry', label: 'Visa expiry', required: true });
      await addCustomField(stack, { accountId: account.accountId, key: 'badge_date', label: 'Badge date', required: false });
      await deactivateCustomField(stack, account.accountId, 'badge_date');
      const withCustom = expectSuccess(await api('GET', '/pub/team-member-actions/fields')) as Array<Record<string, unknown>>;
      expect(withCustom.slice(builtIn.length)).to.deep.equal([{ key: 'custom_fields.visa_expiry', label: 'Visa expiry', type: 'date', required: true, format: 'YYYY-MM-DD' }]);
      // Another account sees only the built-in fields.
      const other = await newAccount(stack.models);
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/fields', undefined, other.liveKey))).to.deep.equal(builtIn);
    });
  });

  describe('departments', () => {
    it('lists the account\'s departments by name with their member counts, never another account\'s', async () => {
      account = await newAccount(stack.models);
      await api('POST', '/pub/team-member-actions/upsert', { email: 'a@example.com', departments: ['Zeta', 'alpha'] });
      await api('POST', '/pub/team-member-actions/upsert', { email: 'b@example.com', departments: ['Alpha'] });
      const list = expectSuccess(await api('GET', '/pub/team-member-actions/departments')) as Array<{ id: number; name: string; members: number; createdat: string }>;
      expect(list.map((d) => [d.name, d.members])).to.deep.equal([
        ['alpha', 2],
        ['Zeta', 1],
      ]);
      const other = await newAccount(stack.models);
      expect(expectSuccess(await api('GET', '/pub/team-member-actions/departments', undefined, other.liveKey))).to.deep.equal([]);
    });
  });

  describe('sample', () => {
    it('returns one invented event of each type, shaped like a delivery', async () => {
      for (const type of ['team_member_created', 'team_member_updated', 'team_member_deactivated', 'team_member_deleted']) {
        const event = expectSuccess(await api('GET', `/pub/team-member-actions/sample?event_type=${type}`)) as Record<string, unknown> & { member: Record<string, unknown> };
        expect(event.event_type).to.equal(type);
        expect(event.event_id).to.match(/^[0-9a-f-]{36}$/);
        expect(event.source).to.equal('api');
        expect('changed_fields' in event).to.equal(type === 'team_member_updated');
        if (type === 'team_member_deleted') expect(Object.keys(event.member)).to.deep.equal(['id', 'email', 'employee_id']);
        else expect(String(event.member.date_of_birth)).to.match(/^1800-/);
        expect(event.member.email).to.match(/@example\.com$/);
      }
    });

    it('requires a known event_type', async () => {
      expectFailure(await api('GET', '/pub/team-member-actions/sample?event_type=member_renamed'), 400, 'invalid_parameter');
      expectFailure(await api('GET', '/pub/team-member-actions/sample'), 422, 'missing_field');
    });
  });
});
