import { expect } from 'chai';
import { MEMBER_EVENT_TYPES } from '../../services/directory/events.ts';
import { newVanityId } from '../../services/widgets/admin/widgets.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { extraApp, testModels, type ExtraApp } from '../helpers/stack.ts';
import type { Models } from '../../models/index.ts';

// A "PNG" of exactly n bytes: the signature is what the service sniffs.
const png = (n: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(n - 8, 1)]).toString('base64');

function expectLimit(res: ApiResponse, limit: string, max: number): void {
  expectFailure(res, 422, 'limit_exceeded');
  expect(res.body).to.deep.include({ limit, max });
}

describe('caps per tenant (LIMIT_*, MEDIA_QUOTA_MB)', function () {
  this.timeout(60_000);
  let app: ExtraApp;
  let models: Models;
  let account: TestAccount;
  before(async () => {
    models = await testModels();
    // 0.001 MiB = 1,048 bytes: two 500-byte images fit, a third does not.
    app = await extraApp({ env: { LIMIT_ECARDS_PER_WIDGET: '3', LIMIT_WEBHOOKS_PER_ACCOUNT: '2', MEDIA_QUOTA_MB: 'free=0.001,pro=1,enterprise=1' } });
  });
  beforeEach(async () => {
    account = await newAccount(models);
  });
  const { api } = apiClient(() => app, () => account.liveKey);
  const ecardCount = (widgetId: number) => models.Ecard.count({ where: { widget_id: widgetId } });
  const mediaCount = (accountId = account.accountId) => models.MediaFile.count({ where: { account_id: accountId } });

  describe('LIMIT_ECARDS_PER_WIDGET', () => {
    it('eCard save refuses the eCard past the cap (also with an image, storing nothing) and a move into a full widget', async () => {
      const widget = await insertWidget(models, account.accountId);
      for (const name of ['a', 'b']) await insertEcard(models, account.accountId, widget.id, { name });
      expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'third' } }));
      expectLimit(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'fourth' } }), 'ecards_per_widget', 3);
      expectLimit(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'fourth' }, ecardimg: png(100) }), 'ecards_per_widget', 3);
      const elsewhere = await insertEcard(models, account.accountId, (await insertWidget(models, account.accountId)).id);
      expectLimit(await api('POST', '/ecard/save', { myEcard: { id: elsewhere.id, widgetid: widget.id } }), 'ecards_per_widget', 3);
      expect(await ecardCount(widget.id)).to.equal(3);
      expect(await mediaCount()).to.equal(0);
    });

    it('eCard copy into a full widget is refused', async () => {
      const widget = await insertWidget(models, account.accountId);
      const cards = [];
      for (const name of ['a', 'b', 'c']) cards.push(await insertEcard(models, account.accountId, widget.id, { name }));
      expectLimit(await api('POST', '/ecard/copy', { ecardid: cards[0]!.id }), 'ecards_per_widget', 3);
      const other = await insertWidget(models, account.accountId);
      expectSuccess(await api('POST', '/ecard/copy', { ecardid: cards[0]!.id, widgetid: other.id }));
      expect(await ecardCount(widget.id)).to.equal(3);
    });

    it('a widget already over the cap stays readable and editable; copying it whole is refused, with a limit it works', async () => {
      const widget = await insertWidget(models, account.accountId);
      const cards = [];
      for (const [i, name] of ['a', 'b', 'c', 'd'].entries()) cards.push(await insertEcard(models, account.accountId, widget.id, { name, display_order: i }));
      const listed = expectSuccess(await api('GET', `/pub/ecard-actions/get-ecards?widgetId=${widget.vanity_id}`)) as unknown[];
      expect(listed).to.have.length(4);
      expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: cards[3]!.id, name: 'renamed' } }));
      const before = await models.Widget.count({ where: { account_id: account.accountId } });
      expectLimit(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id }), 'ecards_per_widget', 3);
      expect(await models.Widget.count({ where: { account_id: account.accountId } })).to.equal(before);
      const copy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id, limit: 3 })) as { id: number };
      expect(await ecardCount(copy.id)).to.equal(3);
    });

    it('a campaign refuses more eCards than the cap', async () => {
      const widget = await insertWidget(models, account.accountId);
      const ids = [];
      for (const name of ['a', 'b', 'c', 'd']) ids.push((await insertEcard(models, account.accountId, widget.id, { name })).id);
      const campaign = expectSuccess(await api('POST', '/campaign/save', { campaign: { campaign_name: 'Big', from_name: 'HR', from_email: 'hr@example.com' } })) as { id: number };
      expectLimit(await api('POST', '/campaign/saveCampaignEcards', { campaignid: campaign.id, ecardIds: ids }), 'ecards_per_widget', 3);
      expectSuccess(await api('POST', '/campaign/saveCampaignEcards', { campaignid: campaign.id, ecardIds: ids.slice(0, 3) }));
    });
  });

  describe('LIMIT_WEBHOOKS_PER_ACCOUNT', () => {
    const hook = (n: number) => `http://127.0.0.1:9/hook-${n}`;
    const subscribe = (n: number, eventType: string = MEMBER_EVENT_TYPES[0]) => api('POST', '/pub/team-member-actions/subscribe', { event_type: eventType, hookUrl: hook(n) });

    it('subscriptions and the ecard_shared URL count together; the same pair again and replacing the URL are no growth', async () => {
      const first = expectSuccess(await subscribe(1)) as { id: number };
      expectSuccess(await api('POST', '/webhook/ecard-shared-url', { url: hook(2) }));
      expectLimit(await subscribe(3), 'webhooks_per_account', 2);
      expect((expectSuccess(await subscribe(1)) as { id: number }).id).to.equal(first.id);
      expectSuccess(await api('POST', '/webhook/ecard-shared-url', { url: hook(4) }));
      expectSuccess(await api('POST', '/pub/team-member-actions/unsubscribe', { id: first.id }));
      expectSuccess(await subscribe(5));
      expectLimit(await subscribe(6), 'webhooks_per_account', 2);
      expect(await models.WebhookEndpoint.count({ where: { account_id: account.accountId, removed_at: null } })).to.equal(2);
    });

    it('an account already over the cap keeps and lists its endpoints; a new URL is refused', async () => {
      for (const n of [1, 2, 3]) {
        await models.WebhookEndpoint.create({ account_id: account.accountId, kind: 'member_change', event_type: MEMBER_EVENT_TYPES[0], url: hook(n), integration: false });
      }
      const listed = expectSuccess(await api('GET', '/webhook/endpoints'));
      expect(JSON.stringify(listed)).to.include(hook(1)).and.include(hook(3));
      expectLimit(await subscribe(4), 'webhooks_per_account', 2);
      expectLimit(await api('POST', '/webhook/ecard-shared-url', { url: hook(5) }), 'webhooks_per_account', 2);
    });
  });

  describe('MEDIA_QUOTA_MB', () => {
    it('uploads past the plan quota are refused; the sandbox has its own quota; stored files stay served', async () => {
      const first = expectSuccess(await api('POST', '/ecard/uploadMediaImage', { imageBase: png(500) })) as { url: string };
      expectSuccess(await api('POST', '/ecard/uploadMediaImage', { imageBase: png(500) }));
      expectLimit(await api('POST', '/ecard/uploadMediaImage', { imageBase: png(500) }), 'media_quota_mb', 0.001);
      expect(await mediaCount()).to.equal(2);
      expect((await fetch(first.url)).status).to.equal(200);
      expectSuccess(await api('POST', '/ecard/uploadMediaImage', { imageBase: png(500) }, account.sandboxKey));
      expect(await mediaCount(account.sandboxAccountId)).to.equal(1);
    });

    it('eCard save with ecardimg and eCard copies count (copies of images are files too) and are refused past it', async () => {
      const widget = await insertWidget(models, account.accountId);
      const saved = expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'one' }, ecardimg: png(500) })) as { id: number };
      const copied = expectSuccess(await api('POST', '/ecard/copy', { ecardid: saved.id })) as { self_hosted_url: string };
      expect(copied.self_hosted_url).to.include('/media/');
      expect(await mediaCount()).to.equal(2);
      expectLimit(await api('POST', '/ecard/copy', { ecardid: saved.id }), 'media_quota_mb', 0.001);
      expectLimit(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'two' }, ecardimg: png(100) }), 'media_quota_mb', 0.001);
      const other = await insertWidget(models, account.accountId);
      expectLimit(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id }), 'media_quota_mb', 0.001);
      expect(await ecardCount(widget.id)).to.equal(2);
      expect(await ecardCount(other.id)).to.equal(0);
      expect(await mediaCount()).to.equal(2);
    });

    it('a widget copy whose images do not all fit is refused before any image is copied', async () => {
      const widget = await insertWidget(models, account.accountId);
      for (const name of ['one', 'two']) expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name }, ecardimg: png(300) }));
      expectLimit(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id }), 'media_quota_mb', 0.001);
      expect(await mediaCount()).to.equal(2);
      expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id, limit: 1 }));
      expect(await mediaCount()).to.equal(3);
    });

    it('the quota is per plan', async () => {
      const pro = await newAccount(models, 'pro');
      for (let i = 0; i < 3; i++) expectSuccess(await api('POST', '/ecard/uploadMediaImage', { imageBase: png(500) }, pro.liveKey));
    });
  });
});

describe('get-ecards answers at most the first 500 in display order', function () {
  this.timeout(60_000);
  it('501 eCards: the first 500 by display order', async () => {
    const app = await extraApp();
    const models = await testModels();
    const account = await newAccount(models);
    const widget = await insertWidget(models, account.accountId);
    // Inserted in reverse display order, so the id order is not the answer.
    const rows = Array.from({ length: 501 }, (_, i) => ({
      account_id: account.accountId,
      widget_id: widget.id,
      vanity_id: newVanityId(),
      name: `Card ${500 - i}`,
      display_order: 500 - i,
    }));
    await models.Ecard.bulkCreate(rows);
    const listed = expectSuccess(await call(app.url, 'GET', `/v2/api/pub/ecard-actions/get-ecards?widgetId=${widget.vanity_id}`, { key: account.liveKey })) as Array<{ name: string }>;
    expect(listed).to.have.length(500);
    expect(listed[0]!.name).to.equal('Card 0');
    expect(listed[499]!.name).to.equal('Card 499');
  });
});

describe('public pages: per (client IP, page kind) limits', function () {
  this.timeout(60_000);
  let app: ExtraApp;
  before(async () => {
    // A fixed clock: the minute's window never turns during the test.
    const at = new Date('2026-11-26T10:00:10Z');
    app = await extraApp({ now: () => at, env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '5', PUBLIC_RATE_LIMIT_POSTS_PER_MINUTE: '5' } });
  });
  const hit = (method: string, path: string) => fetch(`${app.url}${path}`, { method, redirect: 'manual' });

  it('page GETs past the limit get a 429 page with Retry-After; another page kind counts apart', async () => {
    for (let i = 0; i < 5; i++) expect((await hit('GET', `/e/nothing-${i}`)).status).to.equal(404);
    const refused = await hit('GET', '/e/nothing-else');
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(refused.headers.get('content-type')).to.match(/^text\/html/);
    expect(await refused.text()).to.include('Too many requests');
    expect((await hit('GET', '/g/nothing')).status).to.equal(404);
  });

  it('POSTs (open, gift claim) have their own limit', async () => {
    for (let i = 0; i < 5; i++) expect((await hit('POST', '/e/nothing/open')).status).to.equal(404);
    expect((await hit('POST', '/e/nothing/open')).status).to.equal(429);
    for (let i = 0; i < 5; i++) expect((await hit('POST', '/g/nothing')).status).to.not.equal(429);
    expect((await hit('POST', '/g/nothing')).status).to.equal(429);
  });

  it('POST /u/<token> (one-click unsubscribe) is never limited; GET /u/ is', async () => {
    for (let i = 0; i < 40; i++) expect((await hit('POST', '/u/not-a-token')).status).to.equal(404);
    for (let i = 0; i < 5; i++) expect((await hit('GET', '/u/not-a-token')).status).to.equal(404);
    expect((await hit('GET', '/u/not-a-token')).status).to.equal(429);
  });
});
