import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { KEY_PATTERN } from '../../services/api-keys.ts';
import { call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { cardsvc } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { extraApp, testStack } from '../helpers/stack.ts';

describe('cardsvc key', function () {
  this.timeout(60_000);
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });
  const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

  it('create: a scoped live key whose unlisted areas are none, and a sandbox key on the sandbox account', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const live = await cardsvc(['key', 'create', '--account', String(account.accountId), '--permissions', 'ecards=manage,widgets=view', '--name', 'CI', '--json'], env());
    expect(live.code, live.stderr).to.equal(0);
    const created = json(live.stdout) as { keyId: number; key: string };
    expect(Object.keys(created).sort()).to.deep.equal(['key', 'keyId']);
    expect(created.key).to.match(KEY_PATTERN).and.match(/^csk_live_/);
    const row = await models.ApiKey.findByPk(created.keyId);
    expect(row).to.deep.include({ account_id: account.accountId, name: 'CI', full_access: false, key_hash: createHash('sha256').update(created.key).digest('hex') });
    expect(row!.permissions).to.deep.include({ ecards: 'manage', widgets: 'view', campaigns: 'none', settings: 'none' });
    const info = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: created.key }));
    expect(info).to.deep.include({ capabilities: ['ecards:read', 'ecards:write', 'widgets:read'] });

    const sandbox = await cardsvc(['key', 'create', '--account', String(account.accountId), '--sandbox', '--full-access', '--json'], env());
    expect(sandbox.code, sandbox.stderr).to.equal(0);
    const sandboxKey = json(sandbox.stdout) as { keyId: number; key: string };
    expect(sandboxKey.key).to.match(/^csk_test_/);
    expect((await models.ApiKey.findByPk(sandboxKey.keyId))!.account_id).to.equal(account.sandboxAccountId);
  });

  it('rotate prints the new key and keeps the old one for the grace period; revoke stops a key; list never shows a key', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const rotated = await cardsvc(['key', 'rotate', '--key-id', String(account.liveKeyId), '--grace-seconds', '3600', '--json'], env());
    expect(rotated.code, rotated.stderr).to.equal(0);
    const next = json(rotated.stdout) as { keyId: number; key: string };
    expect(next.key).to.match(/^csk_live_/);
    expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: account.liveKey }));
    expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: next.key }));

    const revoked = await cardsvc(['key', 'revoke', '--key-id', String(next.keyId), '--json'], env());
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(json(revoked.stdout)).to.deep.equal({ ok: true });

    const listed = await cardsvc(['key', 'list', '--account', String(account.accountId), '--json'], env());
    expect(listed.code, listed.stderr).to.equal(0);
    const { keys } = json(listed.stdout) as { keys: Array<Record<string, unknown>> };
    expect(keys.map((k) => [k.id, k.mode, k.revoked])).to.deep.equal([
      [account.liveKeyId, 'live', false],
      [account.sandboxKeyId, 'sandbox', false],
      [next.keyId, 'live', true],
    ]);
    expect(keys[0]).to.include.keys('name', 'last4', 'full_access', 'permissions', 'last_used_at', 'revoked_at');
    expect(keys[0]!.last4).to.equal(account.liveKey.slice(-4));
    expect(listed.stdout).not.to.include(account.liveKey).and.not.include(next.key).and.not.include('key_hash');
    // A fresh API instance has nothing cached; the suite's app would see the revocation within 5 s.
    expectFailure(await call((await extraApp()).url, 'GET', '/v2/api/key/info', { key: next.key }), 401, 'revoked_api_key');
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['an unknown area', ['key', 'create', '--account', '1', '--permissions', 'rockets=manage'], /unknown area "rockets"/],
    ['an unknown level', ['key', 'create', '--account', '1', '--permissions', 'ecards=admin'], /unknown level "admin"/],
    ['both --full-access and --permissions', ['key', 'create', '--account', '1', '--full-access', '--permissions', 'ecards=view'], /either --full-access or --permissions/],
    ['a missing --account', ['key', 'list'], /--account must be a positive whole number/],
    ['an unknown account', ['key', 'list', '--account', '999999999'], /No live account with id 999999999/],
    ['an unknown key', ['key', 'revoke', '--key-id', '999999999'], /No API key with id 999999999/],
    ['an unknown command', ['key', 'destroy'], /unknown command "key destroy"/],
    ['a bad --account for otp issue', ['otp', 'issue', '--account', 'abc', '--purpose', 'widget_delete'], /--account must be a positive whole number/],
  ];
  for (const [what, args, message] of bad) {
    it(`refuses ${what} with one line and exit 1`, async () => {
      const result = await cardsvc([...args, '--json'], env());
      expect(result.code).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(message);
      expect(json(result.stdout)).to.include({ ok: false });
    });
  }
});
