import { expect } from 'chai';
import { verifyPassword } from '../../lib/passwords.ts';
import { expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { cardsvc } from '../helpers/cli.ts';
import { consoleClient, setOwnerPassword } from '../helpers/console.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testStack } from '../helpers/stack.ts';

describe('cardsvc owner set-password', function () {
  this.timeout(60_000);
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });

  it('sets the password from stdin, prints { ok: true } with --json, and ends every session of the owner', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const email = await setOwnerPassword(models, account.accountId, 'the old password');
    const client = consoleClient(url);
    expectSuccess(await client.signIn(email, 'the old password'));
    const result = await cardsvc(['owner', 'set-password', '--email', email.toUpperCase(), '--password-stdin', '--json'], env(), 'a brand new password\n');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.have.length(1);
    expect(JSON.parse(result.stdout)).to.deep.equal({ ok: true });
    expect(result.stderr).not.to.include('a brand new password');
    const owner = (await models.User.findOne({ where: { email } }))!;
    expect(await verifyPassword('a brand new password', owner.password_hash)).to.equal(true);
    expect(await models.ConsoleSession.count({ where: { owner_id: owner.id } })).to.equal(0);
    expectFailure(await client.call('GET', '/me'), 401, 'session_required');
    expectFailure(await consoleClient(url).signIn(email, 'the old password'), 401, 'invalid_credentials');
    expectSuccess(await consoleClient(url).signIn(email, 'a brand new password'));
  });

  it('an unknown email, a short password or a missing --password-stdin: one line, exit 1, nothing changed', async () => {
    const { models } = await testStack();
    const account = await newAccount(models);
    const email = await setOwnerPassword(models, account.accountId, 'the old password');
    const cases: Array<[string[], string, string]> = [
      [['--email', `nobody-${Date.now()}@example.com`, '--password-stdin', '--json'], 'a brand new password', 'owner_not_found'],
      [['--email', email, '--password-stdin', '--json'], 'short', 'password_too_short'],
      [['--email', email, '--json'], 'a brand new password', 'usage'],
      [['--password-stdin', '--json'], 'a brand new password', 'usage'],
    ];
    for (const [args, stdin, code] of cases) {
      const result = await cardsvc(['owner', 'set-password', ...args], env(), stdin);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(1);
      expect(JSON.parse(result.stdout)).to.deep.include({ ok: false, code });
      expect(result.stderr.trim().split('\n')).to.have.length(1);
    }
    const plain = await cardsvc(['owner', 'set-password', '--email', 'nobody@example.com', '--password-stdin'], env(), 'a brand new password');
    expect(plain.code).to.equal(1);
    expect(plain.stdout).to.equal('');
    expect(plain.stderr.trim().split('\n')).to.have.length(1);
    const owner = (await models.User.findOne({ where: { email } }))!;
    expect(await verifyPassword('the old password', owner.password_hash)).to.equal(true);
  });
});
