import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { shareCard } from '../helpers/sends.ts';
import { cardsvc } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testStack } from '../helpers/stack.ts';

describe('cardsvc otp issue', function () {
  this.timeout(60_000);
  const env = () => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });

  it('prints { token } for a purpose and resource; the token confirms that action once, stored only as a hash', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const widget = await insertWidget(models, account.accountId);
    await shareCard(url, account.liveKey, (await insertEcard(models, account.accountId, widget.id)).id);
    const result = await cardsvc(['otp', 'issue', '--account', String(account.accountId), '--purpose', 'widget_delete', '--resource', String(widget.id), '--json'], env());
    expect(result.code, result.stderr).to.equal(0);
    const { token } = JSON.parse(result.stdout) as { token: string };
    expect(Object.keys(JSON.parse(result.stdout) as object)).to.deep.equal(['token']);
    const row = await models.ConfirmationToken.findOne({ where: { account_id: account.accountId } });
    expect(row).to.deep.include({ purpose: 'widget_delete', resource_id: String(widget.id), token_hash: createHash('sha256').update(token).digest('hex'), used_at: null });
    expect(row!.expires_at.getTime() - row!.created_at.getTime()).to.equal(10 * 60 * 1000);
    const body = { widgetids: [widget.id], otp_confirmation_token: token };
    expect(expectSuccess(await call(url, 'POST', '/v2/api/widget/deleteWidgets', { key: account.liveKey, body }))).to.deep.equal({ deleted: [widget.id] });
    const again = await insertWidget(models, account.accountId);
    await shareCard(url, account.liveKey, (await insertEcard(models, account.accountId, again.id)).id);
    expectFailure(await call(url, 'POST', '/v2/api/widget/deleteWidgets', { key: account.liveKey, body: { widgetids: [again.id], otp_confirmation_token: token } }), 403, 'confirmation_required');
  });

  it('a token of the live account does not work for the sandbox (another account)', async () => {
    const { models, url } = await testStack();
    const account = await newAccount(models);
    const sandboxWidget = await insertWidget(models, account.sandboxAccountId, { dir_sender_must_be_in_directory: true });
    const live = await cardsvc(['otp', 'issue', '--account', String(account.accountId), '--purpose', 'widget_dir_sender_off', '--resource', String(sandboxWidget.id), '--json'], env());
    const { token } = JSON.parse(live.stdout) as { token: string };
    const body = { widget: { id: sandboxWidget.id, dir_sender_must_be_in_directory: false }, otp_confirmation_token: token };
    expectFailure(await call(url, 'POST', '/v2/api/widget/save', { key: account.sandboxKey, body }), 403, 'confirmation_required');
    const sandbox = await cardsvc(['otp', 'issue', '--account', String(account.accountId), '--sandbox', '--purpose', 'widget_dir_sender_off', '--resource', String(sandboxWidget.id), '--json'], env());
    const good = (JSON.parse(sandbox.stdout) as { token: string }).token;
    expectSuccess(await call(url, 'POST', '/v2/api/widget/save', { key: account.sandboxKey, body: { ...body, otp_confirmation_token: good } }));
  });

  it('refuses an unknown purpose with one line and exit 1', async () => {
    const result = await cardsvc(['otp', 'issue', '--account', '1', '--purpose', 'launch_rockets', '--json'], env());
    expect(result.code).to.equal(1);
    expect(result.stderr.trim().split('\n')).to.have.length(1);
    expect(result.stderr).to.include('--purpose must be one of widget_delete');
  });
});
