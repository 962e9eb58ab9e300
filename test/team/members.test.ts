// An account's people as the console (`team: view`) and the key API's `team` area read them: roles, by who joined
// first, paged; a sandbox key sees its live account's people; another account's people are never listed.
import { expect } from 'chai';
import { apiClient, expectFailure, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { ownerUser, signedInConsole, signedInMember, type ConsoleClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Member = { user_id: number; email: string; name: string; role: string; totp_enabled: boolean; joined_at: string; last_sign_in_at: string | null };

describe('team: the account’s members', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let owner: ConsoleClient;
  let people: Array<{ id: number; email: string; role: string }>;

  before(async () => {
    stack = await testStack();
    ({ account, client: owner } = await signedInConsole(stack));
    const ownerRow = await ownerUser(stack.models, account.accountId);
    people = [{ id: ownerRow.id, email: ownerRow.email, role: 'owner' }];
    for (const role of ['admin', 'designer', 'viewer'] as const) {
      const { user } = await signedInMember(stack, account, role);
      people.push({ id: user.id, email: user.email, role });
    }
    // Someone else's account with its own people.
    await signedInMember(stack, await newAccount(stack.models), 'sender');
  });

  it('the console lists every member with their role, by who joined first, signed in but without two factors', async () => {
    const res = await owner.call('GET', '/team/members');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const members = res.body.data as Member[];
    expect(members.map((m) => ({ id: m.user_id, email: m.email, role: m.role }))).to.deep.equal(people);
    for (const m of members) {
      expect(m.totp_enabled).to.equal(false);
      expect(Date.parse(m.joined_at)).to.be.a('number').and.not.NaN;
      expect(m.last_sign_in_at, m.email).to.be.a('string');
    }
    expect(Object.keys(members[1]!).sort()).to.deep.equal(['email', 'joined_at', 'last_sign_in_at', 'name', 'role', 'totp_enabled', 'user_id']);
    expect(res.body.meta).to.deep.equal({ page: 1, perPage: 20, total: 4, totalPages: 1 });
  });

  it('pages, and refuses a bad page with 400', async () => {
    const second = await owner.call('GET', '/team/members?perPage=3&page=2');
    expect((second.body.data as Member[]).map((m) => m.user_id)).to.deep.equal([people[3]!.id]);
    expect(second.body.meta).to.deep.equal({ page: 2, perPage: 3, total: 4, totalPages: 2 });
    expectFailure(await owner.call('GET', '/team/members?perPage=0'), 400, 'invalid_parameter');
  });

  it('is closed to a role without team: view (a designer, a viewer)', async () => {
    for (const role of ['designer', 'viewer'] as const) {
      const { client } = await signedInMember(stack, account, role);
      const res = await client.call('GET', '/team/members');
      expectFailure(res, 403, 'role_forbidden');
      expect(res.body).to.deep.include({ role, required: 'team: view' });
    }
  });

  it('a key with team: view reads the same people, a sandbox key its live account’s; a key without it is 403', async () => {
    const live = await newKey(stack.models, account.accountId, { team: 'view' });
    const sandbox = await newKey(stack.models, account.sandboxAccountId, { team: 'view' }, 'test');
    const everyone = people.map((p) => p.id);
    const listed = async (key: string) => (await apiClient(stack, key).ok<Member[]>('GET', '/team/members?perPage=100')).map((m) => m.user_id);
    // Two more people joined in the last test: the first four still lead.
    expect((await listed(live.key)).slice(0, 4)).to.deep.equal(everyone);
    expect(await listed(sandbox.key)).to.deep.equal(await listed(live.key));
    const without = await newKey(stack.models, account.accountId, { ecards: 'manage', audit: 'view' });
    expectFailure(await apiClient(stack, without.key).api('GET', '/team/members'), 403, 'key_out_of_scope');
    expectFailure(await apiClient(stack, live.key).api('GET', '/team/members?perPage=101'), 400, 'invalid_parameter');
  });
});
