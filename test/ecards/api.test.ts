import { expect } from 'chai';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

/** A real 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
type EcardBody = Record<string, unknown> & { id: number; vanity_id: string; widgetid: number; self_hosted_url: string | null; displayorder: number; details: string };

describe('eCards', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let other: TestAccount;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
    other = await newAccount(stack.models);
    widgetId = (await insertWidget(stack.models, account.accountId)).id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const create = async (fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
    expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'Card', ...fields }, ...extra })) as EcardBody;

  describe('save', () => {
    it('creates an eCard at the end of its widget, sanitizing details and keeping merge tags', async () => {
      const first = await create({ name: 'One' });
      const card = await create({
        name: 'Two',
        emailSubject: 'Hi {{recipient_first_name}}',
        details: '<p onclick="steal()">Dear {{recipient_name}}</p><script>alert(1)</script><a href="javascript:alert(2)">x</a><a href="https://ok.example/">ok</a><img src="data:image/png;base64,AAAA"><iframe src="https://evil.example"></iframe>',
        canSchedule: 0,
      });
      expect(card).to.deep.include({ name: 'Two', widgetid: widgetId, emailSubject: 'Hi {{recipient_first_name}}', canSchedule: false, disabled: false });
      expect(card.displayorder).to.equal(first.displayorder + 1);
      expect(card.vanity_id).to.match(/^[0-9A-Za-z]{12}$/);
      expect(card.details).to.include('Dear {{recipient_name}}').and.include('href="https://ok.example/"');
      for (const bad of ['onclick', '<script', 'alert(1)', 'javascript:', 'data:image', '<iframe']) expect(card.details).not.to.include(bad);
      const row = await stack.models.Ecard.findByPk(card.id);
      expect(row!.details).to.equal(card.details);
    });

    it('refuses what the spec refuses, writing nothing', async () => {
      const before = await stack.models.Ecard.count({ where: { account_id: account.accountId } });
      expect(expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId } }), 422, 'missing_field')).to.deep.equal(['myEcard.name is required']);
      expect(expectFailure(await api('POST', '/ecard/save', { myEcard: { name: 'x' } }), 422, 'missing_field')).to.deep.equal(['myEcard.widgetid is required']);
      expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'x', header: '{{#if}}broken' } }), 422, 'invalid_template');
      expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'x', ecardLink: 'ftp://files.example/x' } }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'x', self_hosted_url: 'https://a.example/x.png' }, ecardimg: PNG_BASE64 }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'x', disabled: 'maybe' } }), 400, 'invalid_parameter');
      const foreignWidget = await insertWidget(stack.models, other.accountId);
      expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: foreignWidget.id, name: 'x' } }), 404, 'not_found');
      const campaign = await insertWidget(stack.models, account.accountId, { is_campaign: true });
      expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: campaign.id, name: 'x' } }), 422, 'campaign_widget');
      expect(await stack.models.Ecard.count({ where: { account_id: account.accountId } })).to.equal(before);
    });

    it('stores an ecardimg upload (raw or data: URI) as the cover image, served byte for byte', async () => {
      const card = await create({}, { ecardimg: `data:image/png;base64,${PNG_BASE64}` });
      expect(card.self_hosted_url).to.match(new RegExp(`^${stack.config.publicBaseUrl}/media/[\\w-]+\\.png$`));
      const res = await fetch(card.self_hosted_url!);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(PNG_BASE64, 'base64'))).to.equal(true);
    });

    it('updates only the fields sent, and another account’s eCard is 404', async () => {
      const card = await create({ header: 'Keep me', emailSubject: 'Old' });
      const updated = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, emailSubject: 'New' } })) as EcardBody;
      expect(updated).to.deep.include({ header: 'Keep me', emailSubject: 'New', name: 'Card' });
      expectFailure(await api('POST', '/ecard/save', { myEcard: { id: card.id, name: 'Theirs' } }, other.liveKey), 404, 'not_found');
      expectFailure(await api('GET', `/ecard/findOne/id/${card.id}`, undefined, other.liveKey), 404, 'not_found');
      expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.equal(updated);
    });
  });

  describe('uploadMediaImage', () => {
    it('hosts a real PNG; refuses a text file, bad base64 and anything over 5 MB', async () => {
      const { url } = expectSuccess(await api('POST', '/ecard/uploadMediaImage', { imageBase: PNG_BASE64 })) as { url: string };
      expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(Buffer.from(PNG_BASE64, 'base64'))).to.equal(true);
      const text = Buffer.from('not really a png, just text').toString('base64');
      expectFailure(await api('POST', '/ecard/uploadMediaImage', { imageBase: `data:image/png;base64,${text}` }), 400, 'unsupported_image_type');
      expectFailure(await api('POST', '/ecard/uploadMediaImage', { imageBase: '***not base64***' }), 400, 'invalid_image');
      const big = Buffer.alloc(5 * 1024 * 1024 + 100);
      Buffer.from(PNG_BASE64, 'base64').copy(big);
      expectFailure(await api('POST', '/ecard/uploadMediaImage', { imageBase: big.toString('base64') }), 413, 'image_too_large');
    });
  });

  describe('deleteEcards', () => {
    it('deletes for good, all or nothing; an eCard in use needs its token; several in use are refused with the impact', async () => {
      const [a, b] = [await create(), await create()];
      const theirs = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
      expectFailure(await api('POST', '/ecard/deleteEcards', { ecardids: [a.id, theirs.id] }), 404, 'not_found');
      expect(await stack.models.Ecard.count({ where: { id: [a.id, theirs.id] } })).to.equal(2);
      expect(expectSuccess(await api('POST', '/ecard/deleteEcards', { ecardids: [a.id] }))).to.deep.equal({ deleted: [a.id] });

      for (let i = 0; i < 3; i++) await shareCard(stack.url, account.liveKey, b.id);
      const refused = await api('POST', '/ecard/deleteEcards', { ecardids: [b.id] });
      expectFailure(refused, 403, 'confirmation_required');
      expect(refused.body).to.deep.include({ requires_otp: true, otp_purpose: 'ecard_delete_in_use', impact: [{ id: b.id, campaigns: 0, automations: 0, sends: 3 }] });
      expect(await stack.models.Ecard.count({ where: { id: b.id } })).to.equal(1);
      const { token } = await issueToken(stack, { accountId: account.accountId, purpose: 'ecard_delete_in_use', resourceId: String(b.id), now: new Date() });
      expect(expectSuccess(await api('POST', '/ecard/deleteEcards', { ecardIds: [b.id], otp_confirmation_token: token }))).to.deep.equal({ deleted: [b.id] });

      const [c, d] = [await create(), await create()];
      await shareCard(stack.url, account.liveKey, c.id);
      await shareCard(stack.url, account.liveKey, d.id);
      const several = await api('POST', '/ecard/deleteEcards', { ecardids: [c.id, d.id] });
      expectFailure(several, 403, 'confirmation_required');
      expect((several.body.impact as Array<{ id: number }>).map((i) => i.id)).to.deep.equal([c.id, d.id]);
      expect(await stack.models.Ecard.count({ where: { id: [c.id, d.id] } })).to.equal(2);
    });
  });

  describe('copy, bulkUpdate and saveOrder', () => {
    it('copies design and image (duplicated, not shared) into the source widget by default, or another of the account’s', async () => {
      const source = await create({ name: 'Original', header: 'H' }, { ecardimg: PNG_BASE64 });
      const copy = expectSuccess(await api('POST', '/ecard/copy', { ecardid: source.id })) as EcardBody;
      expect(copy).to.deep.include({ name: 'Original', header: 'H', widgetid: widgetId });
      expect(copy.id).to.not.equal(source.id);
      expect(copy.self_hosted_url).to.not.equal(source.self_hosted_url);
      expect(Buffer.from(await (await fetch(copy.self_hosted_url!)).arrayBuffer()).equals(Buffer.from(PNG_BASE64, 'base64'))).to.equal(true);
      const target = await insertWidget(stack.models, account.accountId);
      expect((expectSuccess(await api('POST', '/ecard/copy', { ecardid: source.id, widgetid: target.id })) as EcardBody).widgetid).to.equal(target.id);
      expectFailure(await api('POST', '/ecard/copy', { ecardid: source.id, widgetid: (await insertWidget(stack.models, other.accountId)).id }), 404, 'not_found');
      expectFailure(await api('POST', '/ecard/copy', { ecardid: source.id }, other.liveKey), 404, 'not_found');
    });

    it('bulkUpdate sets one allowed field on a widget’s eCards or a list; refuses other fields and foreign ids', async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      const [a, b] = [await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id)];
      expect(expectSuccess(await api('POST', '/ecard/bulkUpdate', { widgetid: widget.id, fieldName: 'disabled', fieldValue: true }))).to.deep.equal({ updated: 2 });
      expect((await stack.models.Ecard.findByPk(b.id))!.disabled).to.equal(true);
      expect(expectSuccess(await api('POST', '/ecard/bulkUpdate', { ecardids: [a.id], fieldName: 'header', fieldValue: 'Cheers' }))).to.deep.equal({ updated: 1 });
      expect((await stack.models.Ecard.findByPk(a.id))!.header).to.equal('Cheers');
      expectFailure(await api('POST', '/ecard/bulkUpdate', { widgetid: widget.id, fieldName: 'self_hosted_url', fieldValue: 'https://x.example/a.png' }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/ecard/bulkUpdate', { widgetid: widget.id, fieldName: 'disabled', fieldValue: 'sometimes' }), 400, 'invalid_parameter');
      const theirs = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
      expectFailure(await api('POST', '/ecard/bulkUpdate', { ecardids: [a.id, theirs.id], fieldName: 'header', fieldValue: 'x' }), 404, 'not_found');
      expect((await stack.models.Ecard.findByPk(theirs.id))!.header).to.equal('Happy day');
      expectFailure(await api('POST', '/ecard/bulkUpdate', { widgetid: theirs.widget_id, fieldName: 'header', fieldValue: 'x' }), 404, 'not_found');
      expect((await stack.models.Ecard.findByPk(theirs.id))!.header).to.equal('Happy day');
      expectFailure(await api('POST', '/ecard/bulkUpdate', { fieldName: 'header', fieldValue: 'x' }), 422, 'missing_field');
      const campaign = await insertWidget(stack.models, account.accountId, { is_campaign: true });
      expectFailure(await api('POST', '/ecard/bulkUpdate', { widgetid: campaign.id, fieldName: 'disabled', fieldValue: 1 }), 422, 'campaign_widget');
    });

    it('saveOrder puts the listed eCards first and keeps the rest in their order', async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      const cards = [];
      for (let i = 0; i < 4; i++) cards.push(await insertEcard(stack.models, account.accountId, widget.id, { display_order: i }));
      const [e0, e1, e2, e3] = cards.map((c) => c.id) as [number, number, number, number];
      expect(expectSuccess(await api('POST', '/ecard/saveOrder', { neworder: [e2, e0] }))).to.deep.equal({ widgetid: widget.id, order: [e2, e0, e1, e3] });
      const search = expectSuccess(await api('GET', `/ecard/search?widgetID=${widget.id}&sortBy=displayorder`)) as EcardBody[];
      expect(search.map((e) => e.id)).to.deep.equal([e2, e0, e1, e3]);
      expectFailure(await api('POST', '/ecard/saveOrder', { neworder: [e1, e1] }), 400, 'invalid_parameter');
      const otherWidgetCard = await insertEcard(stack.models, account.accountId, widgetId);
      expectFailure(await api('POST', '/ecard/saveOrder', { neworder: [e1, otherWidgetCard.id] }), 422, 'several_widgets');
      const theirs = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
      expectFailure(await api('POST', '/ecard/saveOrder', { neworder: [e1, theirs.id] }), 404, 'not_found');
    });
  });

  describe('preview', () => {
    it('renders merge tags escaped (a value cannot inject markup), unknown tags empty, overrides and trial mode', async () => {
      const card = await create({ emailSubject: 'For {{recipient_name}}', header: '{{unknown_tag}}Hello', details: '<p>Dear {{recipient_first_name}}, {{personal_message}}</p>' });
      const preview = expectSuccess(await api('POST', '/ecard/preview', {
        id: card.id,
        mergeTags: { recipient_name: 'Ada Lovelace', personal_message: '<img src=x onerror=alert(1)><script>alert(2)</script>' },
      })) as { subject: string; header: string; html: string };
      expect(preview.subject).to.equal('For Ada Lovelace');
      expect(preview.header).to.equal('Hello');
      expect(preview.html).to.include('Dear Ada,');
      // The value shows as text: no element, no attribute.
      expect(preview.html).not.to.match(/<img|<script/);
      expect(preview.html).to.include('&lt;img src=x onerror=alert(1)&gt;');
      const overridden = expectSuccess(await api('POST', '/ecard/preview', { id: card.id, overrideProps: { details: '<b>{{sender_name}}</b><script>x</script>' }, trialMode: true })) as { subject: string; html: string };
      expect(overridden.subject).to.equal('[Preview] For Alex Sample');
      expect(overridden.html).to.equal('<b>Sam Sender</b>');
      expectFailure(await api('POST', '/ecard/preview', { id: card.id, overrideProps: { header: '{{#each}}' } }), 422, 'invalid_template');
      expectFailure(await api('POST', '/ecard/preview', { id: card.id }, other.liveKey), 404, 'not_found');
    });
  });

  describe('search', () => {
    it('filters by keyword, widget, ids (numeric or vanity), date window and campaign widgets; pages', async () => {
      const acct = await newAccount(stack.models);
      const w1 = await insertWidget(stack.models, acct.accountId);
      const w2 = await insertWidget(stack.models, acct.accountId);
      const campaign = await insertWidget(stack.models, acct.accountId, { is_campaign: true });
      const a = await insertEcard(stack.models, acct.accountId, w1.id, { name: 'Birthday Cake' });
      const b = await insertEcard(stack.models, acct.accountId, w1.id, { name: 'Anniversary' });
      const c = await insertEcard(stack.models, acct.accountId, w2.id, { name: 'Welcome 50%' });
      const d = await insertEcard(stack.models, acct.accountId, campaign.id, { name: 'Campaign card' });
      await stack.models.Ecard.update({ created_at: new Date(Date.now() - 40 * 86_400_000) }, { where: { id: b.id } });
      const foreign = await insertEcard(stack.models, other.accountId, (await insertWidget(stack.models, other.accountId)).id);
      const ids = async (query: string) => {
        const res = await call(stack.url, 'GET', `/v2/api/ecard/search?${query}`, { key: acct.liveKey });
        return (expectSuccess(res) as EcardBody[]).map((e) => e.id);
      };
      expect((await ids('sortBy=id&sortOrder=asc'))).to.deep.equal([a.id, b.id, c.id]);
      expect(await ids('sortBy=id&sortOrder=asc&includeCampaign=true')).to.deep.equal([a.id, b.id, c.id, d.id]);
      expect(await ids('keyword=cake')).to.deep.equal([a.id]);
      expect(await ids('keyword=50%25')).to.deep.equal([c.id]);
      expect(await ids(`widgetID=${w2.id}`)).to.deep.equal([c.id]);
      expect(await ids(`widgetId=${w2.id}`)).to.deep.equal([c.id]);
      expect(await ids(`ecardIDs=${a.id},${c.vanity_id}&sortBy=id&sortOrder=asc`)).to.deep.equal([a.id, c.id]);
      expectFailure(await call(stack.url, 'GET', `/v2/api/ecard/search?ecardIDs=${foreign.id},${foreign.vanity_id}`, { key: acct.liveKey }), 404, 'not_found');
      expect(await ids('filterByDate=last-month&sortBy=id&sortOrder=asc')).to.deep.equal([a.id, c.id]);
      expect(await ids('filterByDate=last-year&sortBy=id&sortOrder=asc')).to.deep.equal([a.id, b.id, c.id]);
      const page = await call(stack.url, 'GET', '/v2/api/ecard/search?perPage=2&page=2&sortBy=id&sortOrder=asc', { key: acct.liveKey });
      expect((expectSuccess(page) as EcardBody[]).map((e) => e.id)).to.deep.equal([c.id]);
      expect(page.body.meta).to.deep.equal({ page: 2, perPage: 2, total: 3, totalPages: 2 });
      expectFailure(await call(stack.url, 'GET', '/v2/api/ecard/search?filterByDate=yesterday', { key: acct.liveKey }), 400, 'invalid_parameter');
      expectFailure(await call(stack.url, 'GET', '/v2/api/ecard/search?sortBy=price', { key: acct.liveKey }), 400, 'invalid_parameter');
    });
  });
});
