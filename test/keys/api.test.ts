import { expect } from 'chai';
import { AREAS } from '../../models/ApiKey.ts';
import { call, expectSuccess, newAccount, newKey } from '../helpers/api.ts';
import { testStack } from '../helpers/stack.ts';

describe('GET /v2/api/key/info', function () {
  this.timeout(30_000);

  it('describes a full-access key: manage on all 12 areas, read and write capabilities, its limits', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const res = await call(url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    const info = expectSuccess(res) as Record<string, unknown>;
    expect(Object.keys(info).sort()).to.deep.equal(
      ['capabilities', 'full_access', 'key_id', 'mode', 'name', 'permissions', 'rate_limit', 'usage_this_hour'].sort(),
    );
    expect(info).to.deep.include({ key_id: account.liveKeyId, mode: 'live', full_access: true, rate_limit: { per_minute: 120, per_hour: 10000 } });
    expect(Object.keys(info.permissions as object)).to.have.members([...AREAS]);
    expect(Object.values(info.permissions as object)).to.satisfy((levels: string[]) => levels.every((l) => l === 'manage'));
    expect(info.capabilities).to.have.length(24).and.include.members(['ecards:read', 'ecards:write', 'settings:write']);
    expect(JSON.stringify(res.body)).not.to.include(account.liveKey.slice(9));
  });

  it('describes a scoped key, and any valid key may call it whatever its scopes', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const scoped = await newKey(models, account.accountId, { ecards: 'manage', widgets: 'view', directory: 'none' });
    const info = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: scoped.key })) as Record<string, unknown>;
    expect(info.full_access).to.equal(false);
    expect(info.key_id).to.equal(scoped.keyId);
    expect(info.permissions).to.deep.include({ ecards: 'manage', widgets: 'view', directory: 'none', campaigns: 'none' });
    expect(info.capabilities).to.deep.equal(['ecards:read', 'ecards:write', 'widgets:read']);
  });

  it('a key with no scopes at all still reads its own info', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const { key, keyId } = await newKey(models, account.accountId, {});
    const info = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key })) as Record<string, unknown>;
    expect(info).to.deep.include({ key_id: keyId, capabilities: [], full_access: false });
  });
});
