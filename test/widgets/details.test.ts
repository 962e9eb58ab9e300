import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type WidgetBody = Record<string, unknown> & { id: number };

// The widget's own details (logo, website, address, social links), merge_tag_defaults and public_share_enabled.
describe("widgets: the widget's own details, merge-tag fallbacks and public sharing", function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
  });
  // An account per test: the key API's rate limit is per key.
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = async (widget: Record<string, unknown>) => expectSuccess(await api('POST', '/widget/save', { widget })) as WidgetBody;

  const DETAILS = {
    logo: 'https://cdn.example.com/logo.png',
    website: 'https://acme.example.com',
    address: '1 Main St, Springfield',
    stwitter: 'https://twitter.com/acme',
    sfacebook: 'https://facebook.com/acme',
    sinstagram: 'https://instagram.com/acme',
    slinkedin: 'https://linkedin.com/company/acme',
    syoutube: 'https://youtube.com/@acme',
    merge_tag_defaults: { recipient_name: 'friend', team: 'the whole team' },
    public_share_enabled: true,
  };

  it('a new widget answers none of them, and sharing off', async () => {
    const widget = await save({ name: 'Plain', wconfig: {} });
    expect(widget).to.deep.include({
      logo: null, website: null, address: null, stwitter: null, sfacebook: null, sinstagram: null, slinkedin: null, syoutube: null, merge_tag_defaults: {}, public_share_enabled: false,
    });
  });

  it('saves each one; findOne and search answer them; merge_tag_defaults is stored as JSON text', async () => {
    const widget = await save({ name: 'Detailed', wconfig: {}, ...DETAILS });
    expect(widget).to.deep.include(DETAILS);
    expect(expectSuccess(await api('GET', `/widget/findOne/id/${widget.id}`))).to.deep.include(DETAILS);
    const listed = expectSuccess(await api('GET', '/widget/search?keyword=Detailed')) as WidgetBody[];
    expect(listed).to.have.length(1);
    expect(listed[0]).to.deep.include(DETAILS);
    const [rows] = (await stack.models.sequelize.query('SELECT merge_tag_defaults, public_share_enabled FROM widgets WHERE id = :id', { replacements: { id: widget.id } })) as [Array<{ merge_tag_defaults: string; public_share_enabled: unknown }>, unknown];
    expect(JSON.parse(rows[0]!.merge_tag_defaults)).to.deep.equal(DETAILS.merge_tag_defaults);
    expect(Number(rows[0]!.public_share_enabled)).to.equal(1);
  });

  it('an update that leaves them out keeps them; null clears a detail; merge_tag_defaults is replaced whole', async () => {
    const widget = await save({ name: 'Kept', wconfig: {}, ...DETAILS });
    expect(await save({ id: widget.id, name: 'Renamed' })).to.deep.include({ ...DETAILS, name: 'Renamed' });
    const changed = await save({ id: widget.id, logo: null, syoutube: null, merge_tag_defaults: { sender_name: 'A colleague' }, public_share_enabled: 'false' });
    expect(changed).to.deep.include({ logo: null, syoutube: null, website: DETAILS.website, merge_tag_defaults: { sender_name: 'A colleague' }, public_share_enabled: false });
  });

  it('a widget copy keeps them', async () => {
    const widget = await save({ name: 'Source', wconfig: {}, ...DETAILS });
    const copy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id })) as WidgetBody;
    expect(copy.id).not.to.equal(widget.id);
    expect(copy).to.deep.include({ ...DETAILS, name: 'Copy - Source' });
    expect(expectSuccess(await api('GET', `/widget/findOne/id/${copy.id}`))).to.deep.include(DETAILS);
  });

  describe('bad values → 400 invalid_parameter naming the field, nothing written', () => {
    const BAD: Array<[string, Record<string, unknown>, RegExp]> = [
      ['an http logo', { logo: 'http://cdn.example.com/logo.png' }, /widget\.logo: expected an https URL/],
      ['a website that is no URL', { website: 'acme dot com' }, /widget\.website/],
      ['a javascript: social link', { stwitter: 'javascript:alert(1)' }, /widget\.stwitter: expected an https URL/],
      ['an http social link', { syoutube: 'http://youtube.com/@acme' }, /widget\.syoutube: expected an https URL/],
      ['a URL over 2048 characters', { slinkedin: `https://linkedin.com/${'a'.repeat(2048)}` }, /widget\.slinkedin: .*2048/],
      ['an address over 1000 characters', { address: 'x'.repeat(1001) }, /widget\.address: .*1000/],
      ['a fallback that is not text', { merge_tag_defaults: { team: 7 } }, /widget\.merge_tag_defaults\.team/],
      ['a fallback over 500 characters', { merge_tag_defaults: { team: 'x'.repeat(501) } }, /widget\.merge_tag_defaults\.team: .*500/],
      ['a tag name with a space', { merge_tag_defaults: { 'first name': 'x' } }, /widget\.merge_tag_defaults/],
      ['more than 50 fallbacks', { merge_tag_defaults: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`tag${i}`, 'x'])) }, /widget\.merge_tag_defaults: at most 50/],
      ['merge_tag_defaults as a list', { merge_tag_defaults: ['x'] }, /widget\.merge_tag_defaults/],
      ['public_share_enabled not a flag', { public_share_enabled: 'yes please' }, /widget\.public_share_enabled/],
    ];
    for (const [what, fields, message] of BAD) {
      it(what, async () => {
        const widget = await save({ name: 'Kept', wconfig: {}, ...DETAILS });
        const before = await stack.models.Widget.count({ where: { account_id: account.accountId } });
        expect(expectFailure(await api('POST', '/widget/save', { widget: { name: 'Bad', wconfig: {}, ...fields } }), 400, 'invalid_parameter')[0]).to.match(message);
        expect(expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, name: 'Changed', ...fields } }), 400, 'invalid_parameter')[0]).to.match(message);
        expect(await stack.models.Widget.count({ where: { account_id: account.accountId } })).to.equal(before);
        expect(expectSuccess(await api('GET', `/widget/findOne/id/${widget.id}`))).to.deep.include({ ...DETAILS, name: 'Kept' });
      });
    }
  });

  it('a campaign-backed widget stays read-only for them (422), unchanged', async () => {
    const campaign = await insertWidget(stack.models, account.accountId, { is_campaign: true });
    expectFailure(await api('POST', '/widget/save', { widget: { id: campaign.id, logo: DETAILS.logo } }), 422, 'campaign_widget');
    expect((await stack.models.Widget.findByPk(campaign.id))!.logo).to.equal(null);
  });
});
