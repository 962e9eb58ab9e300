// The cardsvc command as a process, the way an operator runs it: the CLI tests run the same entry function in the
// test's process (test/helpers/cli.ts), so what only a process has is checked here: exit codes, stdin piped in,
// one JSON object on stdout, messages and logs on stderr, and the process ending by itself once its work is done.
import { expect } from 'chai';
import { verifyPassword } from '../../lib/passwords.ts';
import { cardsvcOnTerminal, cardsvcProcess } from '../helpers/cli.ts';
import { ownerUser } from '../helpers/console.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, mysqlUrl, tempDir } from '../helpers/env.ts';
import { testModels } from '../helpers/stack.ts';

describe('cardsvc as a process', function () {
  this.timeout(60_000);
  // Nothing here depends on the database: CI runs it once, in the SQLite pass.
  before(function () {
    if (mysqlUrl) this.skip();
  });
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });

  it('a command that succeeds: exit 0, one JSON object on stdout, the password read from stdin, then the process ends', async () => {
    const email = `process-${Date.now()}@example.com`;
    const result = await cardsvcProcess(['account', 'create', '--name', 'Piped', '--owner-email', email, '--password-stdin', '--json'], env(), 'piped password\n');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout.trim().split('\n')).to.have.length(1);
    const created = JSON.parse(result.stdout) as { accountId: number };
    expect(result.stderr).to.match(/^Created account \d+ \(sandbox \d+\); the keys are shown only now\.\n$/);
    const models = await testModels();
    expect((await ownerUser(models, created.accountId)).email).to.equal(email);
  });

  describe('account create --password-stdin on a terminal', () => {
    const create = (email: string) => cardsvcOnTerminal(['account', 'create', '--name', 'Typed', '--owner-email', email, '--password-stdin'], env());
    const ownerOf = async (email: string) => (await testModels()).User.findOne({ where: { email } });

    it('asks for the password twice without showing it, and the owner signs in with it', async () => {
      const email = `terminal-${Date.now()}@example.com`;
      const run = create(email);
      await run.shows('Password (at least 10 characters, not shown): ');
      run.type('correct horse battery\r');
      await run.shows('The same password again: ');
      run.type('correct horse battery\r');
      expect(await run.exit, run.screen()).to.equal(0);
      expect(run.screen()).to.match(/Created account \d+ \(sandbox \d+\)/);
      expect(run.screen()).to.not.include('correct horse');
      expect(await verifyPassword('correct horse battery', (await ownerOf(email))!.password_hash)).to.equal(true);
    });

    for (const [what, first, second, message] of [
      ['two different passwords', 'correct horse battery', 'correct horse battery!', 'the two passwords differ'],
      ['a short password (typed twice)', 'short', 'short', 'A password needs at least 10 characters'],
      ['an empty password (Enter twice)', '', '', 'A password needs at least 10 characters (none was given)'],
    ] as const) {
      it(`refuses ${what} with a message and exit 1, and makes no account`, async () => {
        const email = `terminal-refused-${Date.now()}@example.com`;
        const run = create(email);
        await run.shows('Password (at least 10 characters, not shown): ');
        run.type(`${first}\r`);
        await run.shows('The same password again: ');
        run.type(`${second}\r`);
        expect(await run.exit, run.screen()).to.equal(1);
        expect(run.screen()).to.include(`cardsvc: ${message}`);
        expect(await ownerOf(email)).to.equal(null);
      });
    }
  });

  it('account create --password-stdin with nothing piped in: refused, exit 1, no account', async () => {
    const email = `process-empty-${Date.now()}@example.com`;
    const result = await cardsvcProcess(['account', 'create', '--name', 'Empty', '--owner-email', email, '--password-stdin', '--json'], env(), '');
    expect(result.code).to.equal(1);
    expect(result.stderr.trim()).to.equal('cardsvc: A password needs at least 10 characters (none was given)');
    expect(JSON.parse(result.stdout)).to.deep.include({ ok: false, code: 'password_too_short' });
    expect(await (await testModels()).User.findOne({ where: { email } })).to.equal(null);
  });

  it('a command that fails: exit 1, one line on stderr and { ok: false } on stdout', async () => {
    const result = await cardsvcProcess(['rewards', 'settings', '--account', '999999999', '--json'], env());
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.match(/^cardsvc: .*999999999/);
    expect(JSON.parse(result.stdout)).to.deep.include({ ok: false, code: 'account_not_found' });
  });

  it('no command: the usage on stderr and exit 2; --help: exit 0', async () => {
    const bare = await cardsvcProcess([], env());
    expect(bare.code).to.equal(2);
    expect(bare.stderr).to.match(/^Usage: cardsvc <command>/);
    const help = await cardsvcProcess(['--help'], env());
    expect(help.code).to.equal(0);
    expect(help.stderr).to.match(/^Usage: cardsvc <command>/);
  });
});
