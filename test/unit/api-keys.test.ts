import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { generateKey, hashKey, KEY_PATTERN, permissionsFrom } from '../../services/api-keys.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/passwords.ts';
import { completePermissions, levelsOf } from '../../models/ApiKey.ts';

describe('API key format and hashing', () => {
  it('makes csk_live_ and csk_test_ keys of 43+ base62 characters, never the same twice', () => {
    const keys = Array.from({ length: 50 }, (_, i) => generateKey(i % 2 ? 'live' : 'test'));
    for (const key of keys) expect(key).to.match(KEY_PATTERN);
    expect(keys[0]).to.match(/^csk_test_/);
    expect(keys[1]).to.match(/^csk_live_/);
    expect(new Set(keys).size).to.equal(keys.length);
  });

  it('hashes a key to lower-case hex SHA-256', async () => {
    const key = generateKey('live');
    expect(hashKey(key)).to.equal(createHash('sha256').update(key).digest('hex'));
  });

  it('fills every area: each area\'s top level for full access (view of team and audit), none where not given', () => {
    const full = permissionsFrom({}, true);
    expect(Object.keys(full)).to.have.length(14);
    const { team, audit, ...twelve } = full;
    expect({ team, audit }).to.deep.equal({ team: 'view', audit: 'view' });
    expect(new Set(Object.values(twelve))).to.deep.equal(new Set(['manage']));
    const scoped = permissionsFrom({ ecards: 'view' }, false);
    expect(scoped.ecards).to.equal('view');
    expect(scoped.widgets).to.equal('none');
    expect(scoped.team).to.equal('none');
  });

  it('completes a stored map of the twelve areas: none of a new area, its top level for a full-access key', () => {
    const stored = { ecards: 'view' } as const;
    expect(completePermissions(stored, false)).to.deep.include({ ecards: 'view', team: 'none', audit: 'none', widgets: 'none' });
    expect(completePermissions({ ecards: 'manage' }, true)).to.deep.include({ ecards: 'manage', team: 'view', audit: 'view' });
    expect(levelsOf('audit')).to.deep.equal(['none', 'view']);
    expect(levelsOf('sends')).to.deep.equal(['none', 'view', 'manage']);
  });
});

describe('owner passwords', () => {
  it('stores scrypt hashes that verify only the right password, at N = 2^16 unless told another cost', async () => {
    expect(await hashPassword('correct horse')).to.match(/^scrypt\$65536\$8\$1\$/);
    const hash = await hashPassword('correct horse', 14);
    expect(hash).to.match(/^scrypt\$16384\$8\$1\$/);
    expect(needsRehash(hash, 14)).to.equal(false);
    expect(needsRehash(hash, 16)).to.equal(true);
    expect(hash).not.to.include('correct horse');
    expect(await verifyPassword('correct horse', hash)).to.be.true;
    expect(await verifyPassword('wrong', hash)).to.be.false;
    expect(await verifyPassword('x', null)).to.be.false;
  });
});
