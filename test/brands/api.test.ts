import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';

type Json = Record<string, unknown>;

describe('brands: key API', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const { api, ok } = apiClient(() => stack);
  const brands = async (account: TestAccount) => (await ok('GET', '/brand/list?perPage=100', undefined, account.liveKey)) as unknown as Json[];
  const defaultOf = async (account: TestAccount) => (await brands(account)).find((b) => b.is_default)!;

  describe('the default brand', () => {
    it('a new account and its sandbox each have exactly one default brand, named after the account', async () => {
      const account = await newAccount(stack.models);
      const live = await brands(account);
      expect(live).to.have.length(1);
      expect(live[0]).to.deep.include({ is_default: true, font: 'system', logo_url: null });
      expect(live[0]!.name).to.match(/^Test \d+$/);
      const sandbox = (await ok('GET', '/brand/list', undefined, account.sandboxKey)) as unknown as Json[];
      expect(sandbox).to.have.length(1);
      expect(sandbox[0]).to.deep.include({ is_default: true, name: live[0]!.name });
      expect(sandbox[0]!.id).not.to.equal(live[0]!.id);
    });

    it('saving another brand with is_default: true moves the default', async () => {
      const account = await newAccount(stack.models);
      const first = await defaultOf(account);
      const second = await ok('POST', '/brand/save', { brand: { name: 'Second', is_default: true } }, account.liveKey);
      expect(second.is_default).to.equal(true);
      const all = await brands(account);
      expect(all.filter((b) => b.is_default).map((b) => b.id)).to.deep.equal([second.id]);
      expect((await ok('GET', `/brand/findOne/id/${first.id as number}`, undefined, account.liveKey)).is_default).to.equal(false);
      // And back, on an update.
      await ok('POST', '/brand/save', { brand: { id: first.id, is_default: true } }, account.liveKey);
      expect((await brands(account)).filter((b) => b.is_default).map((b) => b.id)).to.deep.equal([first.id]);
    });

    it('is_default: false on the default → 422 default_brand', async () => {
      const account = await newAccount(stack.models);
      const first = await defaultOf(account);
      expectFailure(await api('POST', '/brand/save', { brand: { id: first.id, is_default: false } }, account.liveKey), 422, 'default_brand');
    });

    it('deleting the default → 422 default_brand', async () => {
      const account = await newAccount(stack.models);
      const first = await defaultOf(account);
      expectFailure(await api('POST', '/brand/delete', { id: first.id }, account.liveKey), 422, 'default_brand');
      expect(await stack.models.Brand.count({ where: { id: first.id as number } })).to.equal(1);
    });
  });

  describe('create, read, update, delete', () => {
    let account: TestAccount;
    let id: number;
    const full = {
      name: 'Acme',
      logo_url: 'https://cdn.example.com/logo.png',
      website: 'https://acme.example.com',
      address: '1 Main St, Springfield',
      primary_color: '#123',
      accent_color: '#A1b2C3',
      background_color: '#ffffff',
      text_color: '#000',
      font: 'serif',
      footer_text: 'Made with care',
      social: { twitter: 'https://twitter.com/acme', linkedin: 'https://www.linkedin.com/company/acme' },
    };
    before(async () => {
      account = await newAccount(stack.models);
    });

    it('creates a brand (id omitted) and answers it whole', async () => {
      const saved = await ok('POST', '/brand/save', { brand: full }, account.liveKey);
      id = saved.id as number;
      expect(saved).to.deep.include({ ...full, is_default: false, social: { twitter: full.social.twitter, facebook: null, instagram: null, linkedin: full.social.linkedin, youtube: null } });
      expect(saved.createdat).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it('id 0 creates too; name is required on create (422)', async () => {
      const made = await ok('POST', '/brand/save', { brand: { id: 0, name: 'Zero' } }, account.liveKey);
      expect(made.id).to.be.a('number').and.not.equal(0);
      expectFailure(await api('POST', '/brand/save', { brand: { font: 'mono' } }, account.liveKey), 422, 'missing_field');
    });

    it('findOne shows what save answered', async () => {
      const found = await ok('GET', `/brand/findOne/id/${id}`, undefined, account.liveKey);
      expect(found).to.deep.include({ ...full, id, is_default: false, social: { twitter: full.social.twitter, facebook: null, instagram: null, linkedin: full.social.linkedin, youtube: null } });
    });

    it('an update is partial; social, when sent, is replaced whole', async () => {
      const updated = await ok('POST', '/brand/save', { brand: { id, primary_color: '#00ff00', social: { youtube: 'https://youtube.com/@acme' } } }, account.liveKey);
      expect(updated).to.deep.include({ name: 'Acme', primary_color: '#00ff00', font: 'serif', website: full.website });
      expect(updated.social).to.deep.equal({ twitter: null, facebook: null, instagram: null, linkedin: null, youtube: 'https://youtube.com/@acme' });
    });

    it('lists page by page with meta', async () => {
      const res = await api('GET', '/brand/list?perPage=2&page=1&sortBy=id&sortOrder=asc', undefined, account.liveKey);
      const data = expectSuccess(res) as Json[];
      expect(data).to.have.length(2);
      expect(res.body.meta).to.deep.equal({ page: 1, perPage: 2, total: 3, totalPages: 2 });
      expect(data[0]!.is_default).to.equal(true);
    });

    it('deletes a brand no eCard uses without a token', async () => {
      expect(await ok('POST', '/brand/delete', { id }, account.liveKey)).to.deep.equal({ deleted: [id] });
      expectFailure(await api('GET', `/brand/findOne/id/${id}`, undefined, account.liveKey), 404, 'not_found');
    });
  });

  describe('validation refusals write nothing', () => {
    let account: TestAccount;
    before(async () => {
      account = await newAccount(stack.models);
    });
    const refusals: Array<[string, Json]> = [
      ['a bad colour', { primary_color: '#12345' }],
      ['a named colour', { text_color: 'red' }],
      ['an http URL', { logo_url: 'http://cdn.example.com/logo.png' }],
      ['an http social link', { social: { twitter: 'http://twitter.com/acme' } }],
      ['an unknown font', { font: 'comic' }],
    ];
    for (const [what, fields] of refusals) {
      it(`${what} → 400 invalid_parameter`, async () => {
        expectFailure(await api('POST', '/brand/save', { brand: { name: 'Refused', ...fields } }, account.liveKey), 400, 'invalid_parameter');
        expect(await stack.models.Brand.count({ where: { account_id: account.accountId, name: 'Refused' } })).to.equal(0);
      });
    }
  });

  describe('isolation and scope', () => {
    it("another account's brand is 404 on findOne, save and delete", async () => {
      const [a, b] = [await newAccount(stack.models), await newAccount(stack.models)];
      const theirs = await ok('POST', '/brand/save', { brand: { name: 'Theirs' } }, b.liveKey);
      expectFailure(await api('GET', `/brand/findOne/id/${theirs.id as number}`, undefined, a.liveKey), 404, 'not_found');
      expectFailure(await api('POST', '/brand/save', { brand: { id: theirs.id, name: 'Mine now' } }, a.liveKey), 404, 'not_found');
      expectFailure(await api('POST', '/brand/delete', { id: theirs.id }, a.liveKey), 404, 'not_found');
      expect((await ok('GET', `/brand/findOne/id/${theirs.id as number}`, undefined, b.liveKey)).name).to.equal('Theirs');
    });

    it('a key without brands is 403 key_out_of_scope; view cannot save', async () => {
      const account = await newAccount(stack.models);
      const ecardsOnly = await newKey(stack.models, account.accountId, { ecards: 'manage' });
      expectFailure(await api('GET', '/brand/list', undefined, ecardsOnly.key), 403, 'key_out_of_scope');
      const viewer = await newKey(stack.models, account.accountId, { brands: 'view' });
      expectSuccess(await api('GET', '/brand/list', undefined, viewer.key));
      expectFailure(await api('POST', '/brand/save', { brand: { name: 'X' } }, viewer.key), 403, 'key_out_of_scope');
    });
  });

  describe('eCards and their brand', () => {
    let account: TestAccount;
    let ecardId: number;
    let brandId: number;
    before(async () => {
      account = await newAccount(stack.models);
      const widget = await insertWidget(stack.models, account.accountId);
      ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
      brandId = (await ok('POST', '/brand/save', { brand: { name: 'Used' } }, account.liveKey)).id as number;
    });

    it('ecardbrandid takes one of the account\'s brands with only ecards: manage', async () => {
      const key = await newKey(stack.models, account.accountId, { ecards: 'manage' });
      const saved = await ok('POST', '/ecard/save', { myEcard: { id: ecardId, ecardbrandid: brandId } }, key.key);
      expect(saved.ecardbrandid).to.equal(brandId);
    });

    it("ecardbrandid of another account's brand or an unknown id → 404, nothing changed", async () => {
      const other = await newAccount(stack.models);
      const theirs = await ok('POST', '/brand/save', { brand: { name: 'Theirs' } }, other.liveKey);
      expectFailure(await api('POST', '/ecard/save', { myEcard: { id: ecardId, ecardbrandid: theirs.id } }, account.liveKey), 404, 'not_found');
      expectFailure(await api('POST', '/ecard/save', { myEcard: { id: ecardId, ecardbrandid: 999_999_999 } }, account.liveKey), 404, 'not_found');
      expectFailure(await api('POST', '/ecard/bulkUpdate', { ecardids: [ecardId], fieldName: 'ecardbrandid', fieldValue: theirs.id }, account.liveKey), 404, 'not_found');
      expect((await ok('GET', `/ecard/findOne/id/${ecardId}`, undefined, account.liveKey)).ecardbrandid).to.equal(brandId);
    });

    it('null ecardbrandid (the default) is accepted by save and bulkUpdate', async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      const other = (await insertEcard(stack.models, account.accountId, widget.id)).id;
      expect((await ok('POST', '/ecard/save', { myEcard: { id: other, ecardbrandid: null } }, account.liveKey)).ecardbrandid).to.equal(null);
      expect(await ok('POST', '/ecard/bulkUpdate', { ecardids: [other], fieldName: 'ecardbrandid', fieldValue: brandId }, account.liveKey)).to.deep.equal({ updated: 1 });
      expect(await ok('POST', '/ecard/bulkUpdate', { ecardids: [other], fieldName: 'ecardbrandid', fieldValue: null }, account.liveKey)).to.deep.equal({ updated: 1 });
    });

    it('a brand in use is refused without its token: 403 confirmation_required, requires_otp, purpose brand_delete', async () => {
      const res = await api('POST', '/brand/delete', { id: brandId }, account.liveKey);
      expectFailure(res, 403, 'confirmation_required');
      expect(res.body).to.deep.include({ requires_otp: true, otp_purpose: 'brand_delete' });
      expect(await stack.models.Brand.count({ where: { id: brandId } })).to.equal(1);
    });

    it('a token issued for another brand does not open it', async () => {
      const spare = (await ok('POST', '/brand/save', { brand: { name: 'Spare' } }, account.liveKey)).id as number;
      const { token } = await issueToken(stack, { accountId: account.accountId, purpose: 'brand_delete', resourceId: String(spare), now: new Date() });
      expectFailure(await api('POST', '/brand/delete', { id: brandId, otp_confirmation_token: token }, account.liveKey), 403, 'confirmation_required');
    });

    it('with its token it is deleted and its eCards go back to null (the default)', async () => {
      const { token } = await issueToken(stack, { accountId: account.accountId, purpose: 'brand_delete', resourceId: String(brandId), now: new Date() });
      expect(await ok('POST', '/brand/delete', { id: brandId, otp_confirmation_token: token }, account.liveKey)).to.deep.equal({ deleted: [brandId] });
      expect(await stack.models.Brand.count({ where: { id: brandId } })).to.equal(0);
      expect((await ok('GET', `/ecard/findOne/id/${ecardId}`, undefined, account.liveKey)).ecardbrandid).to.equal(null);
    });
  });
});
