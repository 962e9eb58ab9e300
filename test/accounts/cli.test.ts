import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { verifyPassword } from '../../lib/passwords.ts';
import { KEY_PATTERN } from '../../services/api-keys.ts';
import { cardsvc } from '../helpers/cli.ts';
import { ownerUser } from '../helpers/console.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testModels } from '../helpers/stack.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

describe('cardsvc account create', function () {
  this.timeout(60_000);
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });

  it('prints one JSON object with the ids and both keys, and writes the linked rows', async () => {
    const models = await testModels();
    const email = uniqueEmail('Owner');
    const result = await cardsvc(
      ['account', 'create', '--name', 'Acme', '--owner-email', email, '--plan', 'pro', '--password-stdin', '--json'],
      env(),
      's3cret pass\n',
    );
    expect(result.code, result.stderr).to.equal(0);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(result.stdout.trim().split('\n')).to.have.length(1);
    expect(Object.keys(out).sort()).to.deep.equal(['accountId', 'liveKey', 'liveKeyId', 'sandboxAccountId', 'sandboxKey', 'sandboxKeyId']);
    expect(out.liveKey).to.match(KEY_PATTERN).and.match(/^csk_live_/);
    expect(out.sandboxKey).to.match(KEY_PATTERN).and.match(/^csk_test_/);
    expect(result.stderr).not.to.include(out.liveKey);

    const live = await models.Account.findByPk(out.accountId as number);
    const sandbox = await models.Account.findByPk(out.sandboxAccountId as number);
    expect(live).to.deep.include({ name: 'Acme', plan: 'pro', mode: 'live', live_account_id: null });
    expect(sandbox).to.deep.include({ plan: 'pro', mode: 'sandbox', live_account_id: live!.id });

    const owner = await ownerUser(models, live!.id);
    expect(live!.owner_user_id).to.equal(owner.id);
    expect(await models.Membership.findAll({ where: { user_id: owner.id }, attributes: ['account_id', 'role'], raw: true })).to.deep.equal([{ account_id: live!.id, role: 'owner' }]);
    expect(owner.email).to.equal(email.toLowerCase());
    expect(await verifyPassword('s3cret pass', owner.password_hash)).to.be.true;

    const liveKey = await models.ApiKey.findByPk(out.liveKeyId as number);
    const sandboxKey = await models.ApiKey.findByPk(out.sandboxKeyId as number);
    expect(liveKey).to.deep.include({ account_id: live!.id, key_hash: sha256(out.liveKey as string), full_access: true, revoked_at: null });
    expect(liveKey!.last4).to.equal((out.liveKey as string).slice(-4));
    expect(sandboxKey).to.deep.include({ account_id: sandbox!.id, key_hash: sha256(out.sandboxKey as string) });
    // Full access: manage on the twelve areas, view of team and audit (read-only for keys).
    const { team, audit, ...twelve } = liveKey!.permissions;
    expect({ team, audit }).to.deep.equal({ team: 'view', audit: 'view' });
    expect(Object.values(twelve)).to.have.length(12).and.satisfy((v: string[]) => v.every((l) => l === 'manage'));
  });

  it('defaults to the free plan and an empty password', async () => {
    const models = await testModels();
    const result = await cardsvc(['account', 'create', '--name', 'Solo', '--owner-email', uniqueEmail('solo'), '--json'], env());
    expect(result.code, result.stderr).to.equal(0);
    const { accountId } = JSON.parse(result.stdout) as { accountId: number };
    expect((await models.Account.findByPk(accountId))!.plan).to.equal('free');
    expect((await ownerUser(models, accountId)).password_hash).to.be.null;
  });

  for (const [what, args, stdin, message] of [
    ['an empty stdin with --password-stdin', ['--password-stdin'], '', 'A password needs at least 10 characters (none was given)'],
    ['a newline alone with --password-stdin', ['--password-stdin'], '\n', 'A password needs at least 10 characters (none was given)'],
    ['a password shorter than the console allows on stdin', ['--password-stdin'], 'nine char\n', 'A password needs at least 10 characters'],
    ['a short --password', ['--password', 'short'], undefined, 'A password needs at least 10 characters'],
  ] as const) {
    it(`refuses ${what}: exit 1, one line, no account or owner made`, async () => {
      const models = await testModels();
      const email = uniqueEmail('refused');
      const accountsBefore = await models.Account.count();
      const result = await cardsvc(['account', 'create', '--name', 'Refused', '--owner-email', email, ...args, '--json'], env(), stdin);
      expect(result.code).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.deep.equal([`cardsvc: ${message}`]);
      expect(JSON.parse(result.stdout)).to.deep.include({ ok: false, code: 'password_too_short' });
      expect(await models.User.findOne({ where: { email: email.toLowerCase() } })).to.equal(null);
      expect(await models.Account.count()).to.equal(accountsBefore);
    });
  }

  it('refuses an owner email already taken: exit 1, one line, nothing written', async () => {
    const models = await testModels();
    const email = uniqueEmail('taken');
    expect((await cardsvc(['account', 'create', '--name', 'First', '--owner-email', email, '--json'], env())).code).to.equal(0);
    const accountsBefore = await models.Account.count();
    const again = await cardsvc(['account', 'create', '--name', 'Second', '--owner-email', email.toUpperCase(), '--json'], env());
    expect(again.code).to.equal(1);
    expect(again.stderr.trim().split('\n')).to.have.length(1);
    expect(again.stderr).to.include('already exists');
    expect(JSON.parse(again.stdout)).to.deep.include({ ok: false, code: 'owner_email_taken' });
    expect(await models.Account.count()).to.equal(accountsBefore);
  });

  const badInputs: Array<[string, string[], RegExp]> = [
    ['a missing --name', ['--owner-email', 'x@example.com'], /--name is required/],
    ['an invalid email', ['--name', 'N', '--owner-email', 'not-an-email'], /not a valid email/],
    ['an unknown plan', ['--name', 'N', '--owner-email', 'p@example.com', '--plan', 'gold'], /plan|expected one of/i],
  ];
  for (const [what, args, message] of badInputs) {
    it(`refuses ${what} with one line and exit 1`, async () => {
      const result = await cardsvc(['account', 'create', ...args, '--json'], env());
      expect(result.code).to.equal(1);
      expect(result.stderr.trim().split('\n')).to.have.length(1);
      expect(result.stderr).to.match(message);
      expect(JSON.parse(result.stdout)).to.include({ ok: false });
    });
  }

  it('exits non-zero with one line when the database cannot be reached', async () => {
    const result = await cardsvc(
      ['account', 'create', '--name', 'N', '--owner-email', 'db@example.com', '--json'],
      baseEnv({ DATABASE_URL: 'mysql://root:hunter2@127.0.0.1:1/nothing' }),
    );
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.include('Cannot connect to the database mysql://root:***@127.0.0.1:1/nothing');
    expect(result.stderr + result.stdout).not.to.include('hunter2');
  });
});
