import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { cardsvc } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testStack } from '../helpers/stack.ts';

describe('cardsvc field add | list | remove', function () {
  // Each case starts the CLI as its own process (several seconds each on a loaded 2-core machine).
  this.timeout(150_000);
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });

  it('adds a custom date field that the fields endpoint lists and upserts set; a required one is needed on create', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const added = await cardsvc(['field', 'add', '--account', String(account.accountId), '--key', 'visa_expiry', '--label', 'Visa expiry', '--required', '--json'], env());
    expect(added.code, added.stderr).to.equal(0);
    const field = JSON.parse(added.stdout) as Record<string, unknown>;
    expect(field).to.deep.include({ key: 'visa_expiry', label: 'Visa expiry', type: 'date', required: true, active: true });
    expect(added.stderr).to.match(/custom_fields\.visa_expiry/);

    const { api } = apiClient(url, account.liveKey);
    const fields = expectSuccess(await api('GET', '/pub/team-member-actions/fields')) as Array<{ key: string }>;
    expect(fields.at(-1)).to.deep.equal({ key: 'custom_fields.visa_expiry', label: 'Visa expiry', type: 'date', required: true, format: 'YYYY-MM-DD' });
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'cli@example.com' }), 422, 'missing_field');
    const created = expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: 'cli@example.com', custom_fields: { visa_expiry: '2030-06-30' } })) as { member: { custom_fields: object } };
    expect(created.member.custom_fields).to.deep.equal({ visa_expiry: '2030-06-30' });

    const listed = await cardsvc(['field', 'list', '--account', String(account.accountId), '--json'], env());
    expect((JSON.parse(listed.stdout) as { fields: Array<{ key: string }> }).fields.map((f) => f.key)).to.deep.equal(['visa_expiry']);
    const removed = await cardsvc(['field', 'remove', '--account', String(account.accountId), '--key', 'visa_expiry', '--json'], env());
    expect(removed.code, removed.stderr).to.equal(0);
    expect((expectSuccess(await api('GET', '/pub/team-member-actions/fields')) as unknown[]).length).to.equal(fields.length - 1);
    // The sandbox is another account: its fields are its own.
    const sandbox = await cardsvc(['field', 'list', '--account', String(account.accountId), '--sandbox', '--json'], env());
    expect(JSON.parse(sandbox.stdout)).to.deep.equal({ fields: [] });
  });

  it('refuses a bad or built-in key, a duplicate, a missing label or account, with one line and exit 1', async () => {
    const { models } = await testStack();
    const account = await newAccount(models);
    const id = String(account.accountId);
    await cardsvc(['field', 'add', '--account', id, '--key', 'start_date', '--label', 'Start', '--json'], env());
    const cases: Array<[string[], string]> = [
      [['--account', id, '--key', 'Start Date', '--label', 'x'], 'invalid_parameter'],
      [['--account', id, '--key', 'email', '--label', 'x'], 'invalid_parameter'],
      [['--account', id, '--key', 'start_date', '--label', 'Again'], 'field_exists'],
      [['--account', id, '--key', 'other'], 'usage'],
      [['--key', 'other', '--label', 'x'], 'usage'],
      [['--account', '999999999', '--key', 'other', '--label', 'x'], 'account_not_found'],
    ];
    for (const [args, code] of cases) {
      const result = await cardsvc(['field', 'add', ...args, '--json'], env());
      expect(result.code, args.join(' ')).to.equal(1);
      expect(JSON.parse(result.stdout)).to.deep.include({ ok: false, code });
      expect(result.stderr.trim().split('\n')).to.have.length(1);
    }
    expect(await models.CustomField.count({ where: { account_id: account.accountId } })).to.equal(1);
  });
});
