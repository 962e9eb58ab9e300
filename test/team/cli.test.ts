// `cardsvc team list`: an operator reads an account's people with their roles; an unknown account fails with one line.
import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { cardsvc } from '../helpers/cli.ts';
import { ownerUser, signedInMember } from '../helpers/console.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testStack } from '../helpers/stack.ts';

describe('cardsvc team', function () {
  this.timeout(60_000);
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });

  it('list prints the people by who joined first, with their roles', async () => {
    const stack = await testStack();
    const account = await newAccount(stack.models);
    const owner = await ownerUser(stack.models, account.accountId);
    const { user: sender } = await signedInMember(stack, account, 'sender');
    const run = await cardsvc(['team', 'list', '--account', String(account.accountId), '--json'], env());
    expect(run.code, run.stderr).to.equal(0);
    const { members } = JSON.parse(run.stdout) as { members: Array<{ user_id: number; email: string; role: string; totp_enabled: boolean }> };
    expect(members.map((m) => [m.user_id, m.email, m.role, m.totp_enabled])).to.deep.equal([
      [owner.id, owner.email, 'owner', false],
      [sender.id, sender.email, 'sender', false],
    ]);
    const text = await cardsvc(['team', 'list', '--account', String(account.accountId)], env());
    expect(text.stdout).to.include(`${sender.id}\tsender\tpassword only\t${sender.email}`);
  });

  it('an account that does not exist, or a sandbox, fails with one line', async () => {
    const stack = await testStack();
    const account = await newAccount(stack.models);
    for (const id of ['999999999', String(account.sandboxAccountId)]) {
      const run = await cardsvc(['team', 'list', '--account', id, '--json'], env());
      expect(run.code).to.equal(1);
      expect(run.stderr.trim().split('\n')).to.have.length(1);
      expect(run.stderr).to.match(/No live account with id/);
    }
    expect((await cardsvc(['team', 'list', '--json'], env())).code).to.equal(1);
  });
});
