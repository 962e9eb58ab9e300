import { expect } from 'chai';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { testReceiver } from '../helpers/receiver.ts';

// decisions.md (Proof, isolation): an id in a filter is a reference, so one that is unknown or another
// account's is a 404, never an empty page that would tell nothing (or, worse, something).
describe('id filters are references', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let account: TestAccount;
  let other: TestAccount;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
    other = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const ids = async (path: string) => (expectSuccess(await api('GET', path)) as Array<{ id: number }>).map((e) => e.id);

  it('/ecard/search ecardIDs: another account’s id or vanity id, or an unknown one, is 404 naming it; the account’s own still filter', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const [a, b] = [await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id)];
    const foreign = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
    for (const ref of [String(foreign.id), foreign.vanity_id, '999999999', 'NoSuchVanity1', `${a.id},${foreign.id}`, `${b.vanity_id},${foreign.vanity_id}`]) {
      const messages = expectFailure(await api('GET', `/ecard/search?ecardIDs=${ref}`), 404, 'not_found');
      expect(messages[0], ref).to.include(ref.split(',').pop()!);
    }
    // The alias spellings are the same parameter.
    expectFailure(await api('GET', `/ecard/search?ecardids=${foreign.id}`), 404, 'not_found');
    expect(await ids(`/ecard/search?ecardIDs=${a.id},${b.vanity_id}&sortBy=id&sortOrder=asc`)).to.deep.equal([a.id, b.id]);
    expect(await ids(`/ecard/search?ecardIDs=${b.id}`)).to.deep.equal([b.id]);
    // The other account sees its own.
    expect((expectSuccess(await api('GET', `/ecard/search?ecardIDs=${foreign.vanity_id}`, undefined, other.liveKey)) as Array<{ id: number }>).map((e) => e.id)).to.deep.equal([foreign.id]);
  });

  it('/ecard/search widgetID: a non-zero id that is another account’s or unknown is 404; 0 means all; the account’s own filters', async () => {
    const [w1, w2] = [await insertWidget(stack.models, account.accountId), await insertWidget(stack.models, account.accountId)];
    const [a, b] = [await insertEcard(stack.models, account.accountId, w1.id), await insertEcard(stack.models, account.accountId, w2.id)];
    const theirs = await insertWidget(stack.models, other.accountId);
    expectFailure(await api('GET', `/ecard/search?widgetID=${theirs.id}`), 404, 'not_found');
    expectFailure(await api('GET', `/ecard/search?widgetId=${theirs.id}`), 404, 'not_found');
    expectFailure(await api('GET', '/ecard/search?widgetID=999999999'), 404, 'not_found');
    expect(await ids(`/ecard/search?widgetID=${w1.id}`)).to.deep.equal([a.id]);
    expect(await ids(`/ecard/search?widgetID=${w2.id}`)).to.deep.equal([b.id]);
    expect(await ids('/ecard/search?widgetID=0&sortBy=id&sortOrder=asc&perPage=100')).to.include.members([a.id, b.id]);
  });

  it('/webhook/deliveries endpoint_id: another account’s or an unknown endpoint is 404; the account’s own filters', async () => {
    const receiver = await testReceiver();
    const subscribe = (acct: TestAccount, path: string) =>
      call(stack.url, 'POST', '/v2/api/pub/team-member-actions/subscribe', { key: acct.liveKey, body: { event_type: 'team_member_created', hookUrl: `${receiver.url}${path}` } });
    const mine = (expectSuccess(await subscribe(account, '/id-filter-mine')) as { id: number }).id;
    const theirs = (expectSuccess(await subscribe(other, '/id-filter-theirs')) as { id: number }).id;
    expectFailure(await api('GET', `/webhook/deliveries?endpoint_id=${theirs}`), 404, 'not_found');
    expectFailure(await api('GET', '/webhook/deliveries?endpoint_id=999999999'), 404, 'not_found');
    expect(expectSuccess(await api('GET', `/webhook/deliveries?endpoint_id=${mine}`))).to.deep.equal([]);
    expect(expectSuccess(await api('GET', `/webhook/deliveries?endpoint_id=${theirs}`, undefined, other.liveKey))).to.deep.equal([]);
  });
});
