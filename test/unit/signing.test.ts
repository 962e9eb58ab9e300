// Webhook signing: the published vectors, and the sender/receiver behaviour the spec promises around them.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { SIGNATURE_HEADER, signatureHeader, verifySignature } from '../../lib/signing.ts';

interface Vector {
  name: string;
  secrets: string[];
  body: string;
  timestamp: number;
  now: number;
  header: string;
  valid: boolean;
}

const vectorFile = JSON.parse(readFileSync(new URL('../../docs/webhook-signature-vectors.json', import.meta.url), 'utf8')) as {
  description: string;
  vectors: Vector[];
};

const NEW_SECRET = 'whsec_unit_new_2b7Qm9Xc';
const OLD_SECRET = 'whsec_unit_old_K4sR1pVz';
const T = 1_767_225_600;
const BODY = JSON.stringify({ event_id: 'e1', event_type: 'team_member_created', member: { id: 1, email: 'a@example.com' } });
const HEADER_FORMAT = /^t=\d+,v1=[0-9a-f]{64}(,v1=[0-9a-f]{64})?$/;

describe('webhook signature vectors (docs/webhook-signature-vectors.json)', () => {
  it('publishes at least six cases, both valid and invalid', () => {
    expect(vectorFile.vectors.length).to.be.at.least(6);
    expect(vectorFile.vectors.some((v) => v.valid)).to.be.true;
    expect(vectorFile.vectors.some((v) => !v.valid)).to.be.true;
  });

  for (const vector of vectorFile.vectors) {
    it(`${vector.valid ? 'accepts' : 'rejects'}: ${vector.name}`, () => {
      expect(verifySignature(vector.header, vector.body, vector.secrets, { now: vector.now })).to.equal(vector.valid);
      expect(vector.header).to.match(new RegExp(`^t=${vector.timestamp},`));
    });
  }
});

describe('signatureHeader and verifySignature', () => {
  it('names the header X-SVC-Signature', () => {
    expect(SIGNATURE_HEADER).to.equal('X-SVC-Signature');
  });

  it('round-trips: what the sender signs, the receiver verifies', () => {
    const header = signatureHeader(BODY, [NEW_SECRET], T);
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T })).to.be.true;
    expect(verifySignature(header, BODY, [NEW_SECRET], { now: new Date(T * 1000) })).to.be.true;
  });

  it('verifies against the current time by default', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(signatureHeader(BODY, [NEW_SECRET], now), BODY, NEW_SECRET)).to.be.true;
    expect(verifySignature(signatureHeader(BODY, [NEW_SECRET], now - 3600), BODY, NEW_SECRET)).to.be.false;
  });

  it('formats t=<seconds>,v1=<hex>, with one v1 per secret in the order given', () => {
    const one = signatureHeader(BODY, [NEW_SECRET], T);
    const two = signatureHeader(BODY, [NEW_SECRET, OLD_SECRET], T);
    expect(one).to.match(HEADER_FORMAT);
    expect(two).to.match(HEADER_FORMAT);
    expect(two.split(',')).to.have.length(3);
    expect(two.startsWith(`${one},v1=`)).to.be.true;
  });

  it('computes the same hex as an independent HMAC-SHA256 over "<t>.<body>"', () => {
    const expected = createHmac('sha256', NEW_SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signatureHeader(BODY, [NEW_SECRET], T)).to.equal(`t=${T},v1=${expected}`);
  });

  it('signs a Uint8Array body exactly like the same string', () => {
    const body = '{"note":"Zoë 🎉"}';
    const bytes = new TextEncoder().encode(body);
    const fromString = signatureHeader(body, [NEW_SECRET], T);
    expect(signatureHeader(bytes, [NEW_SECRET], T)).to.equal(fromString);
    expect(verifySignature(fromString, bytes, NEW_SECRET, { now: T })).to.be.true;
    expect(verifySignature(fromString, Buffer.from(body, 'utf8'), NEW_SECRET, { now: T })).to.be.true;
  });

  it('rejects a tampered body', () => {
    const header = signatureHeader(BODY, [NEW_SECRET], T);
    expect(verifySignature(header, BODY.replace('a@example.com', 'b@example.com'), NEW_SECRET, { now: T })).to.be.false;
    expect(verifySignature(header, `${BODY} `, NEW_SECRET, { now: T })).to.be.false;
  });

  it('rejects a timestamp more than 300 s old or in the future, and honours toleranceSeconds', () => {
    const header = signatureHeader(BODY, [NEW_SECRET], T);
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T + 300 })).to.be.true;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T - 300 })).to.be.true;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T + 301 })).to.be.false;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T - 301 })).to.be.false;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T + 1000, toleranceSeconds: 1000 })).to.be.true;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T + 11, toleranceSeconds: 10 })).to.be.false;
  });

  it('rejects when "now" is not a usable time rather than skipping the check', () => {
    const header = signatureHeader(BODY, [NEW_SECRET], T);
    expect(verifySignature(header, BODY, NEW_SECRET, { now: new Date('not a date') })).to.be.false;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: Number.NaN })).to.be.false;
  });

  it('during rotation, a receiver holding either the new or the previous secret verifies', () => {
    const header = signatureHeader(BODY, [NEW_SECRET, OLD_SECRET], T);
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T })).to.be.true;
    expect(verifySignature(header, BODY, OLD_SECRET, { now: T })).to.be.true;
    expect(verifySignature(header, BODY, [OLD_SECRET, NEW_SECRET], { now: T })).to.be.true;
    expect(verifySignature(header, BODY, 'whsec_someone_else', { now: T })).to.be.false;
  });

  it('after rotation ends only the new secret signs, so a receiver still on the old secret fails', () => {
    const header = signatureHeader(BODY, [NEW_SECRET], T);
    expect(verifySignature(header, BODY, OLD_SECRET, { now: T })).to.be.false;
    expect(verifySignature(header, BODY, NEW_SECRET, { now: T })).to.be.true;
  });

  it('returns false, never throws, for missing or malformed headers', () => {
    const v1 = signatureHeader(BODY, [NEW_SECRET], T).split(',')[1] ?? '';
    const malformed: (string | null | undefined)[] = [
      undefined,
      null,
      '',
      ',',
      'garbage',
      `t=abc,${v1}`,
      `t=-${T},${v1}`,
      `t=${T}`,
      `t=${T},v1=`,
      `t=${T},v1=not-hex`,
      `t=${T},v1=${'0'.repeat(64)}`,
      v1,
      `t=${T},t=${T},${v1}`,
      `t=${T},${v1.toUpperCase().replace('V1=', 'v1=')}`,
      `t=${T},${v1.slice(0, -2)}`,
    ];
    for (const header of malformed) {
      expect(() => verifySignature(header, BODY, NEW_SECRET, { now: T }), String(header)).not.to.throw();
      expect(verifySignature(header, BODY, NEW_SECRET, { now: T }), String(header)).to.be.false;
    }
  });

  it('tolerates spaces after commas and ignores unknown schemes such as v0', () => {
    const [t, v1] = signatureHeader(BODY, [NEW_SECRET], T).split(',');
    expect(verifySignature(`${t}, v0=abc123, ${v1}`, BODY, NEW_SECRET, { now: T })).to.be.true;
    expect(verifySignature(`${t}, v0=abc123`, BODY, NEW_SECRET, { now: T })).to.be.false;
  });

  it('returns false when the receiver has no secret', () => {
    const header = signatureHeader(BODY, [NEW_SECRET], T);
    expect(verifySignature(header, BODY, [], { now: T })).to.be.false;
    expect(verifySignature(header, BODY, '', { now: T })).to.be.false;
  });

  it('refuses to sign without a secret or with a timestamp that is not whole unix seconds', () => {
    expect(() => signatureHeader(BODY, [], T)).to.throw(/at least one/);
    expect(() => signatureHeader(BODY, [''], T)).to.throw(/empty/);
    expect(() => signatureHeader(BODY, [NEW_SECRET], T + 0.5)).to.throw(/unix time/);
    expect(() => signatureHeader(BODY, [NEW_SECRET], -1)).to.throw(/unix time/);
  });
});
