import { expect } from 'chai';
import { call, expectFailure, expectSuccess } from '../helpers/api.ts';
import { consoleClient, signedInConsole } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

describe('console: custom fields and suppressions', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });


  const fieldsOf = async (accountId: number) =>
    (await stack.models.CustomField.findAll({ where: { account_id: accountId }, order: [['field_key', 'ASC']] })).map((f) => [f.field_key, f.label, Boolean(f.required), Boolean(f.active)]);
  const suppressionsOf = async (accountId: number) =>
    (await stack.models.Suppression.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] })).map((s) => [s.kind, s.value]);

  it('adds, lists and removes custom fields; a removed key comes back; the directory shows them', async () => {
    const { account, client } = await signedInConsole(stack);
    expect(expectSuccess(await client.call('GET', '/custom-fields'))).to.deep.equal([]);
    const added = expectSuccess(await client.call('POST', '/custom-fields', { body: { key: 'anniversary', label: ' Work anniversary ', required: true } })) as Json;
    expect(added).to.deep.include({ key: 'anniversary', label: 'Work anniversary', type: 'date', required: true, active: true });
    expectSuccess(await client.call('POST', '/custom-fields', { body: { key: 'badge_day', label: 'Badge day' } }));
    expect((expectSuccess(await client.call('GET', '/custom-fields')) as Json[]).map((f) => [f.key, f.required])).to.deep.equal([['anniversary', true], ['badge_day', false]]);
    // The key API's directory lists it as settable.
    const fields = expectSuccess(await call(stack.url, 'GET', '/v2/api/pub/team-member-actions/fields', { key: account.liveKey })) as Json[];
    expect(fields.map((f) => f.key)).to.include('custom_fields.anniversary');
    const removed = expectSuccess(await client.call('POST', '/custom-fields/anniversary/remove')) as Json;
    expect(removed).to.include({ key: 'anniversary', active: false });
    expect((expectSuccess(await client.call('GET', '/custom-fields')) as Json[]).map((f) => f.key)).to.deep.equal(['badge_day']);
    expect((expectSuccess(await client.call('POST', '/custom-fields', { body: { key: 'anniversary', label: 'Again', required: false } })) as Json).id).to.equal(added.id);
  });

  it('refuses bad fields with nothing written; removing an unknown key or another account’s is 404', async () => {
    const { account, client } = await signedInConsole(stack);
    const other = await signedInConsole(stack);
    expectSuccess(await other.client.call('POST', '/custom-fields', { body: { key: 'theirs', label: 'Theirs' } }));
    expectSuccess(await client.call('POST', '/custom-fields', { body: { key: 'mine', label: 'Mine' } }));
    const before = await fieldsOf(account.accountId);
    expectFailure(await client.call('POST', '/custom-fields', { body: { key: 'Bad Key', label: 'x' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/custom-fields', { body: { key: 'email', label: 'x' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/custom-fields', { body: { key: 'ok_key', label: '   ' } }), 422, 'missing_field');
    expectFailure(await client.call('POST', '/custom-fields', { body: { label: 'x' } }), 422, 'missing_field');
    expectFailure(await client.call('POST', '/custom-fields', { body: { key: 'ok_key', label: 'x', required: 'yes' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/custom-fields', { body: { key: 'mine', label: 'Twice' } }), 409, 'field_exists');
    expect(await fieldsOf(account.accountId)).to.deep.equal(before);
    const theirs = await fieldsOf(other.account.accountId);
    expectFailure(await client.call('POST', '/custom-fields/theirs/remove'), 404, 'not_found');
    expectFailure(await client.call('POST', '/custom-fields/nothing/remove'), 404, 'not_found');
    expect(await fieldsOf(other.account.accountId)).to.deep.equal(theirs);
    expect((expectSuccess(await client.call('GET', '/custom-fields')) as Json[]).map((f) => f.key)).to.deep.equal(['mine']);
  });

  it('adds, lists (paged, by kind) and removes suppressed addresses and blocked domains', async () => {
    const { account, client } = await signedInConsole(stack);
    expect(expectSuccess(await client.call('POST', '/suppressions', { body: { email: ' Bounce@Example.COM ' } }))).to.deep.equal({ kind: 'email', value: 'bounce@example.com', blocked: true, changed: true });
    expect(expectSuccess(await client.call('POST', '/suppressions', { body: { email: 'bounce@example.com' } }))).to.deep.equal({ kind: 'email', value: 'bounce@example.com', blocked: true, changed: false });
    expectSuccess(await client.call('POST', '/suppressions', { body: { domain: 'spam.example' } }));
    expectSuccess(await client.call('POST', '/suppressions', { body: { email: 'second@example.org' } }));
    const page = await client.call('GET', '/suppressions?perPage=2');
    const rows = expectSuccess(page) as Json[];
    expect(rows.map((r) => [r.kind, r.value])).to.deep.equal([['email', 'second@example.org'], ['domain', 'spam.example']]);
    expect(rows[0]!.created_at).to.be.a('string');
    expect(page.body.meta).to.deep.equal({ page: 1, perPage: 2, total: 3, totalPages: 2 });
    expect((expectSuccess(await client.call('GET', '/suppressions?kind=domain')) as Json[]).map((r) => r.value)).to.deep.equal(['spam.example']);
    expect(expectSuccess(await client.call('POST', '/suppressions/remove', { body: { domain: 'SPAM.example' } }))).to.deep.equal({ kind: 'domain', value: 'spam.example', blocked: false, changed: true });
    expect(expectSuccess(await client.call('POST', '/suppressions/remove', { body: { domain: 'spam.example' } }))).to.deep.equal({ kind: 'domain', value: 'spam.example', blocked: false, changed: false });
    expect(await suppressionsOf(account.accountId)).to.deep.equal([['email', 'bounce@example.com'], ['email', 'second@example.org']]);
  });

  it('what the console blocks is what the send checks see (the live account only, not its sandbox)', async () => {
    const { account, client } = await signedInConsole(stack);
    expectSuccess(await client.call('POST', '/suppressions', { body: { domain: 'blocked.example' } }));
    const { blockedRecipient } = await import('../../services/sends/accept/rules.ts');
    expect(await blockedRecipient(stack, account.accountId, ['a@blocked.example'])).to.match(/blocked domain/);
    expect(await blockedRecipient(stack, account.sandboxAccountId, ['a@blocked.example'])).to.equal(null);
  });

  it('refuses bad suppressions with nothing written; another account’s entries are untouched', async () => {
    const { account, client } = await signedInConsole(stack);
    const other = await signedInConsole(stack);
    expectSuccess(await other.client.call('POST', '/suppressions', { body: { email: 'theirs@example.com' } }));
    expectFailure(await client.call('POST', '/suppressions', { body: { email: 'not-an-email' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/suppressions', { body: { domain: 'no_dots' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/suppressions', { body: { email: 'a@example.com', domain: 'example.com' } }), 400, 'invalid_parameter');
    expectFailure(await client.call('POST', '/suppressions', { body: {} }), 400, 'invalid_parameter');
    expectFailure(await client.call('GET', '/suppressions?kind=ip'), 400, 'invalid_parameter');
    expect(await suppressionsOf(account.accountId)).to.deep.equal([]);
    // Naming B's entry removes nothing of B's.
    expect(expectSuccess(await client.call('POST', '/suppressions/remove', { body: { email: 'theirs@example.com' } }))).to.include({ changed: false });
    expect(await suppressionsOf(other.account.accountId)).to.deep.equal([['email', 'theirs@example.com']]);
    expect(expectSuccess(await client.call('GET', '/suppressions'))).to.deep.equal([]);
  });

  it('needs a session (401) and, to write, the CSRF token (403)', async () => {
    const { account, client } = await signedInConsole(stack);
    const anonymous = consoleClient(stack.url);
    expectFailure(await anonymous.call('GET', '/custom-fields'), 401, 'session_required');
    expectFailure(await anonymous.call('GET', '/suppressions'), 401, 'session_required');
    expectFailure(await anonymous.call('POST', '/suppressions/remove', { body: { email: 'a@example.com' } }), 401, 'session_required');
    expectFailure(await client.call('POST', '/custom-fields', { body: { key: 'sneaky', label: 'Sneaky' }, csrf: null }), 403, 'csrf_invalid');
    expectFailure(await client.call('POST', '/suppressions', { body: { email: 'a@example.com' }, csrf: null }), 403, 'csrf_invalid');
    expectFailure(await client.call('POST', '/suppressions', { body: { email: 'a@example.com' }, origin: 'https://evil.example' }), 403, 'csrf_invalid');
    expect(await fieldsOf(account.accountId)).to.deep.equal([]);
    expect(await suppressionsOf(account.accountId)).to.deep.equal([]);
  });
});
