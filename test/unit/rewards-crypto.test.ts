import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { loadConfig } from '../../lib/config.ts';
import { loadDataKeys, type DataKeys } from '../../lib/data-key.ts';
import { aadOf, codeHmacs, last4Of, masked, normalizeCode } from '../../services/rewards/crypto.ts';
import { keysOrThrow, MissingDataKeyError, open, seal } from '../../lib/sealing.ts';
import { tempDir } from '../helpers/env.ts';

const newKey = () => randomBytes(32).toString('base64');
const keysOf = (current: string, previous?: string): DataKeys =>
  loadDataKeys(loadConfig({ DATA_DIR: tempDir(), REWARDS_ENCRYPTION_KEY: current, ...(previous ? { REWARDS_ENCRYPTION_KEY_PREVIOUS: previous } : {}) }))!;

describe('sealing with the data key, and gift codes', () => {
  const aad = aadOf(12, 'manual:Acme:25');

  it('seals a code with a random nonce and opens it back with the same account and pool', () => {
    const keys = keysOf(newKey());
    const a = seal(keys, aad, 'ABCD-1234-EFGH-5678');
    const b = seal(keys, aad, 'ABCD-1234-EFGH-5678');
    expect(a.keyId).to.equal(keys.current.id).and.match(/^[0-9a-f]{8}$/);
    expect(a.ciphertext).to.not.equal(b.ciphertext);
    expect(a.ciphertext).to.not.include('ABCD');
    expect(open(keys, aad, a)).to.equal('ABCD-1234-EFGH-5678');
    expect(open(keys, aad, b)).to.equal('ABCD-1234-EFGH-5678');
  });

  it('refuses another account or pool (AAD), a changed byte, and another key', () => {
    const keys = keysOf(newKey());
    const sealed = seal(keys, aad, 'SECRET-CODE-0001');
    expect(() => open(keys, aadOf(13, 'manual:Acme:25'), sealed)).to.throw();
    expect(() => open(keys, aadOf(12, 'manual:Acme:50'), sealed)).to.throw();
    const raw = Buffer.from(sealed.ciphertext, 'base64');
    raw[15] = raw[15]! ^ 1;
    expect(() => open(keys, aad, { ...sealed, ciphertext: raw.toString('base64') })).to.throw();
    expect(() => open(keysOf(newKey()), aad, sealed)).to.throw(/not configured/);
  });

  it('reads what the previous key wrote after a rotation, and writes with the new one', () => {
    const oldKey = newKey();
    const before = keysOf(oldKey);
    const sealed = seal(before, aad, 'OLD-CODE-123456');
    const rotated = keysOf(newKey(), oldKey);
    expect(rotated.previous?.id).to.equal(before.current.id);
    expect(open(rotated, aad, sealed)).to.equal('OLD-CODE-123456');
    const resealed = seal(rotated, aad, 'OLD-CODE-123456');
    expect(resealed.keyId).to.equal(rotated.current.id).and.not.equal(sealed.keyId);
    // Once the previous key is dropped, its ciphertexts no longer open.
    expect(() => open(keysOf(newKey()), aad, sealed)).to.throw(/DATA_ENCRYPTION_KEY_PREVIOUS/);
  });

  it('hashes the normalized code: case, spaces and dashes do not make another card; a rotation keeps both hashes', () => {
    const oldKey = newKey();
    const keys = keysOf(oldKey);
    expect(normalizeCode(' abcd-1234 ')).to.equal('ABCD1234');
    expect(codeHmacs(keys, 'abcd-1234')).to.deep.equal(codeHmacs(keys, 'ABCD 1234'));
    expect(codeHmacs(keys, 'abcd-1234')).to.have.length(1);
    expect(codeHmacs(keys, 'abcd-1234')[0]).to.match(/^[0-9a-f]{64}$/);
    expect(codeHmacs(keys, 'abcd-1235')).to.not.deep.equal(codeHmacs(keys, 'abcd-1234'));
    // Keyed: another key gives another hash of the same code.
    expect(codeHmacs(keysOf(newKey()), 'abcd-1234')).to.not.deep.equal(codeHmacs(keys, 'abcd-1234'));
    const rotated = keysOf(newKey(), oldKey);
    const both = codeHmacs(rotated, 'ABCD 1234');
    expect(both).to.have.length(2);
    expect(both[1]).to.equal(codeHmacs(keys, 'abcd-1234')[0]);
  });

  it('masks as `****` + the last 4 characters, or `****` alone under 12 characters', () => {
    expect(last4Of('ABCDEFGHIJKL')).to.equal('IJKL');
    expect(last4Of('ABCDEFGHIJK')).to.equal(null);
    expect(last4Of('')).to.equal(null);
    expect(masked(last4Of('GIFT-0000-9876'))).to.equal('****9876');
    expect(masked(last4Of('SHORT-123'))).to.equal('****');
    expect(masked(null)).to.equal('****');
    expect(masked(undefined)).to.equal('****');
  });

  it('refuses gift work with no key configured', () => {
    expect(() => keysOrThrow(undefined)).to.throw(MissingDataKeyError, /DATA_ENCRYPTION_KEY/);
    const keys = keysOf(newKey());
    expect(keysOrThrow(keys)).to.equal(keys);
  });
});
