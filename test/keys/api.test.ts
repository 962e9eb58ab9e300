import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { AREAS } from '../../models/ApiKey.ts';
import { call, expectFailure, expectSuccess, newAccount, newKey } from '../helpers/api.ts';
import { testStack } from '../helpers/stack.ts';

describe('GET /v2/api/key/info', function () {
  this.timeout(30_000);

  it('describes a full-access key: manage on the 12 areas, view of team and audit, read and write capabilities, its limits', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const res = await call(url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    const info = expectSuccess(res) as Record<string, unknown>;
    expect(Object.keys(info).sort()).to.deep.equal(
      ['capabilities', 'full_access', 'key_id', 'mode', 'name', 'permissions', 'rate_limit', 'usage_this_hour'].sort(),
    );
    expect(info).to.deep.include({ key_id: account.liveKeyId, mode: 'live', full_access: true, rate_limit: { per_minute: 120, per_hour: 10000 } });
    expect(Object.keys(info.permissions as object)).to.have.members([...AREAS]).and.have.length(14);
    const { team, audit, ...twelve } = info.permissions as Record<string, string>;
    expect({ team, audit }).to.deep.equal({ team: 'view', audit: 'view' });
    expect(Object.values(twelve)).to.have.length(12).and.satisfy((levels: string[]) => levels.every((l) => l === 'manage'));
    expect(info.capabilities).to.have.length(26).and.include.members(['ecards:read', 'ecards:write', 'settings:write', 'team:read', 'audit:read']);
    expect(info.capabilities).not.to.include.members(['team:write']).and.not.include.members(['audit:write']);
    expect(JSON.stringify(res.body)).not.to.include(account.liveKey.slice(9));
  });

  it('describes a scoped key, and any valid key may call it whatever its scopes', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const scoped = await newKey(models, account.accountId, { ecards: 'manage', widgets: 'view', directory: 'none' });
    const info = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: scoped.key })) as Record<string, unknown>;
    expect(info.full_access).to.equal(false);
    expect(info.key_id).to.equal(scoped.keyId);
    expect(info.permissions).to.deep.include({ ecards: 'manage', widgets: 'view', directory: 'none', campaigns: 'none', team: 'none', audit: 'none' });
    expect(info.capabilities).to.deep.equal(['ecards:read', 'ecards:write', 'widgets:read']);
  });

  it('a key made before team and audit existed reads none of them; a full-access one reads both (it means every area)', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const scoped = await newKey(models, account.accountId, { ecards: 'view' });
    // The maps such keys hold: the twelve areas only.
    const twelve = (levels: (area: string) => string) => JSON.stringify(Object.fromEntries(AREAS.filter((a) => a !== 'team' && a !== 'audit').map((a) => [a, levels(a)])));
    const store = (id: number, map: string) => models.sequelize.query('UPDATE api_keys SET permissions = ? WHERE id = ?', { replacements: [map, id] });
    await store(scoped.keyId, twelve((area) => (area === 'ecards' ? 'view' : 'none')));
    await store(account.liveKeyId, twelve(() => 'manage'));
    const stored = await models.sequelize.query<{ permissions: string }>('SELECT permissions FROM api_keys WHERE id = ?', { replacements: [scoped.keyId], plain: true, type: QueryTypes.SELECT });
    expect(JSON.parse(stored!.permissions)).to.include({ ecards: 'view' }).and.not.have.property('team');
    const scopedInfo = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: scoped.key })) as { permissions: Record<string, string> };
    expect(scopedInfo.permissions).to.deep.include({ ecards: 'view', team: 'none', audit: 'none' });
    const fullInfo = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key: account.liveKey })) as { permissions: Record<string, string> };
    expect(fullInfo.permissions).to.deep.include({ ecards: 'manage', team: 'view', audit: 'view' });
    expect(expectSuccess(await call(url, 'GET', '/v2/api/team/members', { key: account.liveKey }))).to.have.length(1);
    expectFailure(await call(url, 'GET', '/v2/api/team/members', { key: scoped.key }), 403, 'key_out_of_scope');
  });

  it('a key with no scopes at all still reads its own info', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const { key, keyId } = await newKey(models, account.accountId, {});
    const info = expectSuccess(await call(url, 'GET', '/v2/api/key/info', { key })) as Record<string, unknown>;
    expect(info).to.deep.include({ key_id: keyId, capabilities: [], full_access: false });
  });
});
