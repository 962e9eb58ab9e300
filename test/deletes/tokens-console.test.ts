import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { consoleClient, OWNER_PASSWORD, signedInConsole } from '../helpers/console.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

describe('console: one-time confirmation tokens', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const tokenCount = (accountId: number) => stack.models.ConfirmationToken.count({ where: { account_id: accountId } });
  const { api } = apiClient(() => stack);
  const inUseEcard = async (account: TestAccount) => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    await shareCard(stack.url, account.liveKey, ecard.id);
    return { widget, ecard };
  };

  it('issues an ecard_delete_in_use token once (stored as a hash, 10 minutes) that confirms that delete through the key API', async () => {
    const { account, client } = await signedInConsole(stack);
    const { ecard } = await inUseEcard(account);
    expectFailure(await api('POST', '/ecard/deleteEcards', { ecardids: [ecard.id] }, account.liveKey), 403, 'confirmation_required');
    const issued = expectSuccess(await client.call('POST', '/tokens', { body: { purpose: 'ecard_delete_in_use', resource_id: ecard.id } })) as Json;
    expect(Object.keys(issued).sort()).to.deep.equal(['expires_at', 'purpose', 'resource_id', 'token']);
    expect(issued).to.deep.include({ purpose: 'ecard_delete_in_use', resource_id: ecard.id });
    const row = (await stack.models.ConfirmationToken.findOne({ where: { account_id: account.accountId } }))!;
    expect(row).to.deep.include({ resource_id: String(ecard.id), token_hash: createHash('sha256').update(issued.token as string).digest('hex'), used_at: null });
    expect(row.expires_at.toISOString()).to.equal(issued.expires_at);
    expect(row.expires_at.getTime() - row.created_at.getTime()).to.equal(10 * 60_000);
    expect(expectSuccess(await api('POST', '/ecard/deleteEcards', { ecardids: [ecard.id], otp_confirmation_token: issued.token }, account.liveKey))).to.deep.equal({ deleted: [ecard.id] });
    // A string id (as a form posts it) is the same resource.
    const { ecard: second } = await inUseEcard(account);
    expect(expectSuccess(await client.call('POST', '/tokens', { body: { purpose: 'ecard_delete_in_use', resource_id: String(second.id) } }))).to.deep.include({ resource_id: second.id });
  });

  it('widget_delete and gc_* tokens need step-up (403, nothing written), then work', async () => {
    const { account, client } = await signedInConsole(stack);
    const { widget } = await inUseEcard(account);
    for (const body of [{ purpose: 'widget_delete', resource_id: widget.id }, { purpose: 'gc_automation_enable' }]) {
      expectFailure(await client.call('POST', '/tokens', { body }), 403, 'step_up_required');
    }
    expect(await tokenCount(account.accountId)).to.equal(0);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const issued = expectSuccess(await client.call('POST', '/tokens', { body: { purpose: 'widget_delete', resource_id: widget.id } })) as Json;
    const body = { widgetids: [widget.id], otp_confirmation_token: issued.token };
    expect(expectSuccess(await api('POST', '/widget/deleteWidgets', body, account.liveKey))).to.deep.equal({ deleted: [widget.id] });
    // gc_automation_enable goes without a resource (an automation's create).
    expect(expectSuccess(await client.call('POST', '/tokens', { body: { purpose: 'gc_automation_enable' } }))).to.deep.include({ resource_id: null });
  });

  it('bad input is refused with nothing written; a resource is required but for gc_automation_enable; 401 and CSRF', async () => {
    const { account, client } = await signedInConsole(stack);
    const widget = await insertWidget(stack.models, account.accountId);
    for (const body of [{ purpose: 'everything', resource_id: widget.id }, { purpose: 'widget_dir_sender_off', resource_id: -3 }, { purpose: 'widget_dir_sender_off', resource_id: 'abc' }, {}]) {
      const res = await client.call('POST', '/tokens', { body });
      expect(res.status, JSON.stringify(body)).to.be.oneOf([400, 422]);
      expect(res.body).to.deep.include({ success: false, data: null });
    }
    expectFailure(await client.call('POST', '/tokens', { body: { purpose: 'widget_dir_sender_off' } }), 422, 'resource_required');
    expectFailure(await client.call('POST', '/tokens', { body: { purpose: 'widget_dir_sender_off', resource_id: widget.id }, csrf: null }), 403, 'csrf_invalid');
    expect(await tokenCount(account.accountId)).to.equal(0);
    expectFailure(await consoleClient(stack.url).call('POST', '/tokens', { body: { purpose: 'widget_dir_sender_off', resource_id: widget.id } }), 401, 'session_required');
    expectSuccess(await client.call('POST', '/tokens', { body: { purpose: 'widget_dir_sender_off', resource_id: widget.id } }));
  });

  it('another account\'s resource (or the live one\'s from sandbox mode) is 404 and no token is issued', async () => {
    const { account, client } = await signedInConsole(stack);
    const other = await newAccount(stack.models);
    expectSuccess(await client.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }));
    const { widget, ecard } = await inUseEcard(other);
    const campaign = expectSuccess(await api('POST', '/campaign/save', { campaign: { campaign_name: 'Theirs' } }, other.liveKey)) as Json;
    for (const body of [
      { purpose: 'widget_delete', resource_id: widget.id },
      { purpose: 'widget_dir_sender_off', resource_id: widget.id },
      { purpose: 'ecard_delete_in_use', resource_id: ecard.id },
      { purpose: 'gc_campaign_send', resource_id: campaign.id },
      { purpose: 'gc_automation_enable', resource_id: 999_999_999 },
    ]) {
      expectFailure(await client.call('POST', '/tokens', { body }), 404, 'not_found');
    }
    const own = await insertWidget(stack.models, account.accountId);
    expectSuccess(await client.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    expectFailure(await client.call('POST', '/tokens', { body: { purpose: 'widget_dir_sender_off', resource_id: own.id } }), 404, 'not_found');
    expect(await tokenCount(account.accountId)).to.equal(0);
    expect(await tokenCount(account.sandboxAccountId)).to.equal(0);
    expect(await tokenCount(other.accountId)).to.equal(0);
    expect(await stack.models.Widget.count({ where: { id: widget.id } })).to.equal(1);
  });
});
