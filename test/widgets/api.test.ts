import { expect } from 'chai';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type WidgetBody = Record<string, unknown> & { id: number; vanity_id: string; name: string; ecardPrices: Record<string, number> };

describe('widgets', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let other: TestAccount;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
    other = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = async (widget: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    expectSuccess(await api('POST', '/widget/save', { widget, ...extra })) as WidgetBody;
  const token = async (purpose: 'widget_delete' | 'widget_dir_sender_off', resourceId: number, now = new Date()) =>
    (await issueToken(stack, { accountId: account.accountId, purpose, resourceId: String(resourceId), now })).token;

  describe('save', () => {
    it('creates with id 0: the server assigns vanity_id and ownerid and ignores them from the client', async () => {
      const created = await save({ id: 0, name: 'Birthday', wconfig: { color: 'blue', nested: { a: 1 } }, vanity_id: 'mine', ownerid: 999 });
      expect(created).to.deep.include({ name: 'Birthday', ownerid: account.accountId, wconfig: { color: 'blue', nested: { a: 1 } }, dir_sender_must_be_in_directory: false, ecardPrices: {} });
      expect(created.vanity_id).to.match(/^[0-9A-Za-z]{12}$/);
      const row = await stack.models.Widget.findByPk(created.id);
      expect(row!.account_id).to.equal(account.accountId);
      expect(row!.vanity_id).to.equal(created.vanity_id);
    });

    it('requires name and wconfig on create (422), and refuses wrong types (400), writing nothing', async () => {
      const before = await stack.models.Widget.count({ where: { account_id: account.accountId } });
      expect(expectFailure(await api('POST', '/widget/save', { widget: { id: 0, wconfig: {} } }), 422, 'missing_field')).to.deep.equal(['widget.name is required']);
      expect(expectFailure(await api('POST', '/widget/save', { widget: { name: 'x' } }), 422, 'missing_field')).to.deep.equal(['widget.wconfig is required']);
      expect(expectFailure(await api('POST', '/widget/save', { widget: { id: 0 } }), 422, 'missing_field')).to.deep.equal(['widget.name is required', 'widget.wconfig is required']);
      expectFailure(await api('POST', '/widget/save', { widget: { name: '', wconfig: {} } }), 422, 'missing_field');
      expectFailure(await api('POST', '/widget/save', {}), 422, 'missing_field');
      expectFailure(await api('POST', '/widget/save', { widget: { name: 'x', wconfig: 'theme=dark' } }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/widget/save', { widget: { name: 'x', wconfig: {}, dir_sender_must_be_in_directory: 'yes' } }), 400, 'invalid_parameter');
      expect(await stack.models.Widget.count({ where: { account_id: account.accountId } })).to.equal(before);
    });

    it('updates only the fields sent; wconfig is replaced whole', async () => {
      const created = await save({ name: 'A', wconfig: { a: 1, b: 2 }, dir_sender_must_be_in_directory: true });
      const renamed = await save({ id: created.id, name: 'B' });
      expect(renamed).to.deep.include({ name: 'B', wconfig: { a: 1, b: 2 }, dir_sender_must_be_in_directory: true, vanity_id: created.vanity_id });
      const reconfigured = await save({ id: created.id, wconfig: { c: 3 } });
      expect(reconfigured.wconfig).to.deep.equal({ c: 3 });
    });

    it('stores ecardPrices as a map of its own eCards (two decimals, ≥ 0), replaced whole', async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      const [a, b] = [await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id)];
      const priced = await save({ id: widget.id }, { ecardPrices: { [a.id]: 2.5, [b.id]: 0 } });
      expect(priced.ecardPrices).to.deep.equal({ [a.id]: 2.5, [b.id]: 0 });
      expect((await save({ id: widget.id }, { ecardPrices: { [b.id]: 10.99 } })).ecardPrices).to.deep.equal({ [b.id]: 10.99 });
      const foreignWidget = await insertWidget(stack.models, other.accountId);
      const foreign = await insertEcard(stack.models, other.accountId, foreignWidget.id);
      // Another account's eCard is no eCard here (404); the account's own eCard of another widget breaks the map's rule (422).
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id }, ecardPrices: { [foreign.id]: 1 } }), 404, 'not_found');
      const elsewhere = await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id);
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id }, ecardPrices: { [elsewhere.id]: 1 } }), 422, 'unknown_ecard_price');
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id }, ecardPrices: { [a.id]: 1.234 } }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id }, ecardPrices: { [a.id]: -1 } }), 400, 'invalid_parameter');
      expect((expectSuccess(await api('GET', `/widget/findOne/id/${widget.id}`)) as WidgetBody).ecardPrices).to.deep.equal({ [b.id]: 10.99 });
      const listed = (expectSuccess(await api('GET', '/widget/search?perPage=100')) as WidgetBody[]).find((w) => w.id === widget.id);
      expect(listed!.ecardPrices).to.deep.equal({ [b.id]: 10.99 });
    });

    it('turning dir_sender_must_be_in_directory off needs a token for that widget; a failed save does not use it up', async () => {
      const widget = await save({ name: 'Dir', wconfig: {}, dir_sender_must_be_in_directory: true });
      const refused = await api('POST', '/widget/save', { widget: { id: widget.id, dir_sender_must_be_in_directory: false } });
      expectFailure(refused, 403, 'confirmation_required');
      expect(refused.body).to.deep.include({ requires_otp: true, otp_purpose: 'widget_dir_sender_off' });

      const otherWidget = await save({ name: 'Other', wconfig: {}, dir_sender_must_be_in_directory: true });
      const wrongResource = await token('widget_dir_sender_off', otherWidget.id);
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, dir_sender_must_be_in_directory: false }, otp_confirmation_token: wrongResource }), 403, 'confirmation_required');
      const wrongPurpose = await token('widget_delete', widget.id);
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, dir_sender_must_be_in_directory: false }, otp_confirmation_token: wrongPurpose }), 403, 'confirmation_required');
      const expired = await token('widget_dir_sender_off', widget.id, new Date(Date.now() - 11 * 60 * 1000));
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, dir_sender_must_be_in_directory: false }, otp_confirmation_token: expired }), 403, 'confirmation_required');

      const good = await token('widget_dir_sender_off', widget.id);
      // The save fails for another reason (an unknown eCard price): the token stays unused.
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, dir_sender_must_be_in_directory: false }, ecardPrices: { 999999: 1 }, otp_confirmation_token: good }), 404, 'not_found');
      expect((await stack.models.Widget.findByPk(widget.id))!.dir_sender_must_be_in_directory).to.equal(true);
      const off = await save({ id: widget.id, dir_sender_must_be_in_directory: false }, { otp_confirmation_token: good });
      expect(off.dir_sender_must_be_in_directory).to.equal(false);
      // Used once: turning it on and off again needs a new token.
      await save({ id: widget.id, dir_sender_must_be_in_directory: true });
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, dir_sender_must_be_in_directory: false }, otp_confirmation_token: good }), 403, 'confirmation_required');
      // Turning it on, or creating a widget with it off, needs nothing.
      expect((await save({ name: 'New', wconfig: {}, dir_sender_must_be_in_directory: false })).dir_sender_must_be_in_directory).to.equal(false);
    });
  });

  describe('findOne and search', () => {
    it('findOne returns the widget with wconfig parsed; another account’s id is 404 everywhere, nothing changed', async () => {
      const widget = await save({ name: 'Mine', wconfig: { k: 'v' } });
      expectFailure(await api('POST', '/widget/save', { widget: { id: widget.id, name: 'Stolen' } }, other.liveKey), 404, 'not_found');
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] }, other.liveKey), 404, 'not_found');
      expect(expectSuccess(await api('GET', `/widget/findOne/id/${widget.id}`))).to.deep.equal(widget);
      expectFailure(await api('GET', `/widget/findOne/id/${widget.id}`, undefined, other.liveKey), 404, 'not_found');
      expectFailure(await api('GET', '/widget/findOne/id/abc'), 400, 'invalid_parameter');
    });

    // The search reads plain rows, findOne an instance: every field (booleans, wconfig, dates, prices) must agree.
    it('search answers each widget exactly as findOne does', async () => {
      const acct = await newAccount(stack.models);
      const saveAs = async (widget: Record<string, unknown>) =>
        expectSuccess(await call(stack.url, 'POST', '/v2/api/widget/save', { key: acct.liveKey, body: { widget } })) as WidgetBody;
      const plain = await saveAs({ name: 'Plain', wconfig: {} });
      const full = await saveAs({
        name: 'Full', wconfig: { theme: 'dark', thumbColumns: 4 }, public_share_enabled: true, email_verification_required: true,
        logo: 'https://example.com/logo.png', merge_tag_defaults: { company: 'Acme' }, style_fontsize: 14, stylebg: '#ffffff',
        sender_email_domains_whitelist: 'example.com', dir_session_timeout_minutes: 45,
      });
      const priced = await insertEcard(stack.models, acct.accountId, full.id);
      await stack.models.Ecard.update({ price: '3.50' }, { where: { id: priced.id } });
      const listed = expectSuccess(await call(stack.url, 'GET', '/v2/api/widget/search?sortBy=id&sortOrder=asc', { key: acct.liveKey })) as WidgetBody[];
      const one = async (id: number) => expectSuccess(await call(stack.url, 'GET', `/v2/api/widget/findOne/id/${id}`, { key: acct.liveKey }));
      expect(listed).to.deep.equal([await one(plain.id), await one(full.id)]);
      expect(listed[1]).to.deep.include({ public_share_enabled: true, email_verification_required: true, wconfig: { theme: 'dark', thumbColumns: 4 }, ecardPrices: { [priced.id]: 3.5 } });
      expect(listed[0]).to.deep.include({ public_share_enabled: false, ecardPrices: {} });
    });

    it('pages, filters by keyword (case-insensitive, % literal), sorts, and hides campaign widgets', async () => {
      const acct = await newAccount(stack.models);
      for (const name of ['Alpha', 'beta', 'Gamma', '100% Fun', 'Delta']) {
        const res = await call(stack.url, 'POST', '/v2/api/widget/save', { key: acct.liveKey, body: { widget: { name, wconfig: {} } } });
        expectSuccess(res);
      }
      await insertWidget(stack.models, acct.accountId, { name: 'Alpha campaign', is_campaign: true });
      const search = async (query: string) => {
        const res = await call(stack.url, 'GET', `/v2/api/widget/search?${query}`, { key: acct.liveKey });
        return { names: (expectSuccess(res) as WidgetBody[]).map((w) => w.name), meta: res.body.meta };
      };
      expect(await search('sortBy=name&sortOrder=asc')).to.deep.equal({ names: ['100% Fun', 'Alpha', 'beta', 'Delta', 'Gamma'], meta: { page: 1, perPage: 20, total: 5, totalPages: 1 } });
      expect((await search('sortBy=name&sortOrder=asc&perPage=2&page=2')).names).to.deep.equal(['beta', 'Delta']);
      expect((await search('sortBy=name&sortOrder=asc&perPage=2&page=2')).meta).to.deep.equal({ page: 2, perPage: 2, total: 5, totalPages: 3 });
      expect((await search('keyword=ALP')).names).to.deep.equal(['Alpha']);
      expect((await search('keyword=%25')).names).to.deep.equal(['100% Fun']);
      expect((await search('keyword=a&sortBy=name&sortOrder=desc')).names).to.deep.equal(['Gamma', 'Delta', 'beta', 'Alpha']);
      expectFailure(await call(stack.url, 'GET', '/v2/api/widget/search?sortBy=color', { key: acct.liveKey }), 400, 'invalid_parameter');
      expectFailure(await call(stack.url, 'GET', '/v2/api/widget/search?perPage=500', { key: acct.liveKey }), 400, 'invalid_parameter');
    });

    it('campaign widgets are readable but read-only here (422)', async () => {
      const campaign = await insertWidget(stack.models, account.accountId, { is_campaign: true });
      expect(expectSuccess(await api('GET', `/widget/findOne/id/${campaign.id}`))).to.deep.include({ is_campaign: true });
      expectFailure(await api('POST', '/widget/save', { widget: { id: campaign.id, name: 'x' } }), 422, 'campaign_widget');
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [campaign.id] }), 422, 'campaign_widget');
      expectFailure(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: campaign.id }), 422, 'campaign_widget');
    });

    it('needs the widgets scope: view reads, manage writes', async () => {
      const { key } = await newKey(stack.models, account.accountId, { widgets: 'view' });
      expectSuccess(await call(stack.url, 'GET', '/v2/api/widget/search', { key }));
      expectFailure(await call(stack.url, 'POST', '/v2/api/widget/save', { key, body: { widget: { name: 'x', wconfig: {} } } }), 403, 'key_out_of_scope');
    });
  });

  describe('deleteWidgets', () => {
    it('deletes widgets with their eCards', async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      await insertEcard(stack.models, account.accountId, widget.id);
      expect(expectSuccess(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] }))).to.deep.equal({ deleted: [widget.id] });
      expect(await stack.models.Widget.findByPk(widget.id)).to.equal(null);
      expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(0);
    });

    it('is all or nothing: an unknown or foreign id is 404 and nothing is deleted', async () => {
      const mine = await insertWidget(stack.models, account.accountId);
      const theirs = await insertWidget(stack.models, other.accountId);
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [mine.id, theirs.id] }), 404, 'not_found');
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [mine.id, 99999999] }), 404, 'not_found');
      expect(await stack.models.Widget.findByPk(mine.id)).to.not.equal(null);
      expect(await stack.models.Widget.findByPk(theirs.id)).to.not.equal(null);
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [] }), 422, 'missing_field');
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: ['x'] }), 400, 'invalid_parameter');
    });

    it('a widget in use needs its token: 403 with requires_otp and the impact, then deleted with the token', async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      const sent = await insertEcard(stack.models, account.accountId, widget.id);
      await insertEcard(stack.models, account.accountId, widget.id);
      await shareCard(stack.url, account.liveKey, sent.id);
      await shareCard(stack.url, account.liveKey, sent.id);
      const refused = await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] });
      expectFailure(refused, 403, 'confirmation_required');
      expect(refused.body).to.deep.include({
        requires_otp: true,
        otp_purpose: 'widget_delete',
        impact: [{ id: widget.id, ecards: 2, campaigns: 0, automations: 0, sends: 2 }],
      });
      expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(2);
      const wrong = await token('widget_delete', widget.id + 1);
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id], otp_confirmation_token: wrong }), 403, 'confirmation_required');
      const good = await token('widget_delete', widget.id);
      expect(expectSuccess(await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id], otp_confirmation_token: good }))).to.deep.equal({ deleted: [widget.id] });
      // A token works once.
      const again = await insertWidget(stack.models, account.accountId);
      await shareCard(stack.url, account.liveKey, (await insertEcard(stack.models, account.accountId, again.id)).id);
      expectFailure(await api('POST', '/widget/deleteWidgets', { widgetids: [again.id], otp_confirmation_token: good }), 403, 'confirmation_required');
    });

    it('several widgets in use at once are refused with the impact of each, and nothing is deleted', async () => {
      const [a, b, c] = [await insertWidget(stack.models, account.accountId), await insertWidget(stack.models, account.accountId), await insertWidget(stack.models, account.accountId)];
      await shareCard(stack.url, account.liveKey, (await insertEcard(stack.models, account.accountId, a.id)).id);
      await shareCard(stack.url, account.liveKey, (await insertEcard(stack.models, account.accountId, b.id)).id);
      const refused = await api('POST', '/widget/deleteWidgets', { widgetids: [a.id, b.id, c.id], otp_confirmation_token: await token('widget_delete', a.id) });
      expectFailure(refused, 403, 'confirmation_required');
      expect((refused.body.impact as Array<{ id: number }>).map((i) => i.id)).to.deep.equal([a.id, b.id]);
      expect(await stack.models.Widget.count({ where: { id: [a.id, b.id, c.id] } })).to.equal(3);
    });
  });

  describe('copyWidgetWithEcards', () => {
    it('copies as "Copy - <name>" with flags and the first `limit` eCards in display order', async () => {
      const source = await save({ name: 'Holidays', wconfig: { snow: true }, dir_sender_must_be_in_directory: true });
      await insertEcard(stack.models, account.accountId, source.id, { name: 'Second', display_order: 2 });
      await insertEcard(stack.models, account.accountId, source.id, { name: 'First', display_order: 1 });
      await insertEcard(stack.models, account.accountId, source.id, { name: 'Third', display_order: 3 });
      const copy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: source.id, limit: 2 })) as WidgetBody;
      expect(copy).to.deep.include({ name: 'Copy - Holidays', wconfig: { snow: true }, dir_sender_must_be_in_directory: true, ownerid: account.accountId });
      expect(copy.id).to.not.equal(source.id);
      expect(copy.vanity_id).to.not.equal(source.vanity_id);
      const copied = await stack.models.Ecard.findAll({ where: { widget_id: copy.id }, order: [['display_order', 'ASC']] });
      expect(copied.map((e) => e.name)).to.deep.equal(['First', 'Second']);
      const all = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetId: source.id })) as WidgetBody;
      expect(await stack.models.Ecard.count({ where: { widget_id: all.id } })).to.equal(3);
    });

    it('refuses limit ≤ 0 (400) and another account’s widget (404)', async () => {
      const source = await insertWidget(stack.models, account.accountId);
      expectFailure(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: source.id, limit: 0 }), 400, 'invalid_parameter');
      expectFailure(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: source.id }, other.liveKey), 404, 'not_found');
    });
  });
});
