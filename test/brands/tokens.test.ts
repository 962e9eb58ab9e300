import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { cardsvc } from '../helpers/cli.ts';
import { ownerOnPages, signedInConsole } from '../helpers/console.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

describe('brands: brand_delete tokens from the console and cardsvc', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const { api } = apiClient(() => stack);
  /** A brand one eCard uses. */
  const usedBrand = async (account: TestAccount) => {
    const brand = expectSuccess(await api('POST', '/brand/save', { brand: { name: 'In use' } }, account.liveKey)) as Json;
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    await ecard.update({ ecardbrandid: brand.id as number });
    return brand.id as number;
  };

  it('the console issues a brand_delete token without step-up, and it confirms that delete through the key API', async () => {
    const { account, client } = await signedInConsole(stack);
    const id = await usedBrand(account);
    const issued = expectSuccess(await client.call('POST', '/tokens', { body: { purpose: 'brand_delete', resource_id: id } })) as Json;
    expect(issued).to.deep.include({ purpose: 'brand_delete', resource_id: id });
    expect(expectSuccess(await api('POST', '/brand/delete', { id, otp_confirmation_token: issued.token }, account.liveKey))).to.deep.equal({ deleted: [id] });
  });

  it("the console refuses a brand_delete token for another account's brand (404), issuing nothing", async () => {
    const { account, client } = await signedInConsole(stack);
    const other = await newAccount(stack.models);
    const theirs = await usedBrand(other);
    expectFailure(await client.call('POST', '/tokens', { body: { purpose: 'brand_delete', resource_id: theirs } }), 404, 'not_found');
    expect(await stack.models.ConfirmationToken.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('the tokens page offers the brand_delete purpose', async () => {
    const { browser } = await ownerOnPages(stack);
    const html = await (await browser.get('/v2/console/tokens')).text();
    expect(html).to.include('value="brand_delete"');
    expect(html).to.include('Delete a brand used by eCards (brand id)');
  });

  it('cardsvc otp issue --purpose brand_delete prints a token that deletes that brand once', async () => {
    const account = await newAccount(stack.models);
    const id = await usedBrand(account);
    const env = baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir() });
    const result = await cardsvc(['otp', 'issue', '--account', String(account.accountId), '--purpose', 'brand_delete', '--resource', String(id), '--json'], env);
    expect(result.code, result.stderr).to.equal(0);
    const { token } = JSON.parse(result.stdout) as { token: string };
    expect(expectSuccess(await api('POST', '/brand/delete', { id, otp_confirmation_token: token }, account.liveKey))).to.deep.equal({ deleted: [id] });
    const again = await usedBrand(account);
    expectFailure(await api('POST', '/brand/delete', { id: again, otp_confirmation_token: token }, account.liveKey), 403, 'confirmation_required');
  });
});
