// The widget's gallery API and hosted pages over HTTP: the envelope, which cards show, paging, the counters, one 404
// for every widget a stranger may not see, framing, no cookies, the widget API's OpenAPI document, the page weight.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { widgetOpenApiText } from '../../api/widgets/public/openapi-doc.ts';
import { widgetApiRoutes } from '../../api/widgets/public/routes.ts';
import { packageRoot } from '../../lib/paths.ts';
import { readFormToken } from '../../services/widgets/public/tokens.ts';
import { expectSuccess, newAccount } from '../helpers/api.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { insertPublicWidget, widgetData } from '../helpers/public-widget.ts';
import { extraApp, testStack, type ExtraApp, type TestStack } from '../helpers/stack.ts';
import { PERSONAL_MESSAGE_MAX } from '../../services/sends/accept/personal-message.ts';

interface GalleryBody {
  widget: { vanity_id: string; name: string; display: Record<string, unknown>; styles: Record<string, unknown>; texts: Record<string, string>; lang: string; dir: string };
  ecards: { vanity_id: string; name: string }[];
  chosen: { vanity_id: string } | null;
  form_token: string;
  honeypot_field: string;
}

const page = (url: string, path: string) => fetch(`${url}${path}`, { redirect: 'manual' });
const htmlAt = async (res: Promise<Response>) => htmlOf(await res);
/** The page's HTML as a browser reads its attributes (Handlebars writes `=` as `&#x3D;`). */
const htmlOf = async (res: Response) => (await res.text()).replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');

async function counters(stack: TestStack, widgetId: number) {
  const rows = await stack.models.WidgetCounter.findAll({ where: { widget_id: widgetId } });
  return Object.fromEntries(rows.map((r) => [r.kind, r.count]));
}

describe('the widget gallery (GET /v2/widget/{vanity_id}) and its pages', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let accountId: number;

  before(async () => {
    stack = await testStack();
    accountId = (await newAccount(stack.models)).accountId;
  });

  it('answers the envelope: display settings, styles, strings, the visible cards in display order, a form token, the honeypot', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { ecards: 3, wconfig: { layout: 'masonry', locale: 'fr', ecardsPerPage: 4 }, fields: { stylebg: '#ffeedd', style_fontsize: 18 } });
    await ecards[0]!.update({ display_order: 5 });
    const res = await widgetData(stack.url, widget.vanity_id);
    const data = expectSuccess(res) as GalleryBody;
    expect(Object.keys(data).sort()).to.deep.equal(['chosen', 'ecards', 'form_token', 'honeypot_field', 'widget']);
    expect(res.body.meta).to.deep.equal({ page: 1, pageSize: 4, total: 3, totalPages: 1 });
    expect(data.widget.display).to.include({ layout: 'masonry', locale: 'fr', ecardsPerPage: 4, thumbColumns: 3, theme: 'light' });
    expect(data.widget.styles).to.include({ stylebg: '#ffeedd', style_fontsize: 18, widgetcss: null });
    expect(data.widget.lang).to.equal('fr');
    expect(data.widget.texts.widgetSend).to.equal('Envoyer la carte');
    expect(data.widget.texts).not.to.have.property('intro');
    expect(data.ecards.map((e) => e.name)).to.deep.equal(['Card 2', 'Card 3', 'Card 1']);
    expect(data.ecards[0]).to.include({ canSchedule: true, personalMessageBox: true, predefinedScheduleOn: false, predefinedScheduleForced: false, predefinedSchedule: null, price: null, thumb_image: null });
    expect(data.chosen).to.equal(null);
    expect(data.honeypot_field).to.equal('fax_number');
    expect(readFormToken(stack.services.dataKeys, widget.id, data.form_token, stack.services.now())).to.not.equal(null);
    expect(res.headers.get('set-cookie')).to.equal(null);
    expect(res.headers.get('cache-control')).to.equal('no-store');
  });

  it('gives a card\'s redirect after send only when it is a web address (the page navigates to it)', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { ecards: 2 });
    await ecards[0]!.update({ url_redirect_after_send: 'javascript:alert(1)' });
    await ecards[1]!.update({ url_redirect_after_send: 'https://shop.example/thanks' });
    const data = expectSuccess(await widgetData(stack.url, widget.vanity_id)) as { ecards: { url_redirect_after_send: string | null }[] };
    expect(data.ecards.map((e) => e.url_redirect_after_send)).to.deep.equal([null, 'https://shop.example/thanks']);
  });

  it('hides disabled, not yet published and expired cards', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { ecards: 5 });
    const now = stack.services.now().getTime();
    await ecards[0]!.update({ disabled: true });
    await ecards[1]!.update({ publish_on: new Date(now + 3_600_000) });
    await ecards[2]!.update({ expire_on: new Date(now - 1000) });
    await ecards[3]!.update({ publish_on: new Date(now - 3_600_000), expire_on: new Date(now + 3_600_000) });
    const data = expectSuccess(await widgetData(stack.url, widget.vanity_id)) as GalleryBody;
    expect(data.ecards.map((e) => e.name)).to.deep.equal(['Card 4', 'Card 5']);
    for (const hidden of ecards.slice(0, 3)) {
      expect((await widgetData(stack.url, widget.vanity_id, `?ecard=${hidden.vanity_id}`)).status).to.equal(404);
      expect((await page(stack.url, `/w/${widget.vanity_id}/e/${hidden.vanity_id}`)).status).to.equal(404);
    }
    const html = await (await page(stack.url, `/w/${widget.vanity_id}`)).text();
    expect(html).to.include('Card 4').and.include('Card 5').and.not.include('Card 1<').and.not.include('Card 2<').and.not.include('Card 3<');
  });

  it('pages by ecardsPerPage: the API and the page, with previous and next links', async () => {
    const { widget } = await insertPublicWidget(stack.models, accountId, { ecards: 9, wconfig: { ecardsPerPage: 4 } });
    const second = await widgetData(stack.url, widget.vanity_id, '?page=2');
    expect((expectSuccess(second) as GalleryBody).ecards.map((e) => e.name)).to.deep.equal(['Card 5', 'Card 6', 'Card 7', 'Card 8']);
    expect(second.body.meta).to.deep.equal({ page: 2, pageSize: 4, total: 9, totalPages: 3 });
    const last = await widgetData(stack.url, widget.vanity_id, '?page=99');
    expect((expectSuccess(last) as GalleryBody).ecards.map((e) => e.name)).to.deep.equal(['Card 9']);
    expect((await widgetData(stack.url, widget.vanity_id, '?page=abc')).status).to.equal(400);
    const html = await htmlAt(page(stack.url, `/w/${widget.vanity_id}?page=2`));
    expect(html).to.include(`href="/w/${widget.vanity_id}" rel="prev"`).and.include(`href="/w/${widget.vanity_id}?page=3" rel="next"`).and.include('Page 2 of 3');
    expect(html).to.include('Card 5').and.not.include('>Card 1<');
  });

  it('counts a view per served gallery page and a form open per chosen card (API and form page)', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { ecards: 2 });
    await widgetData(stack.url, widget.vanity_id);
    await page(stack.url, `/w/${widget.vanity_id}`);
    const chosen = await widgetData(stack.url, widget.vanity_id, `?ecard=${ecards[1]!.vanity_id}`);
    expect((expectSuccess(chosen) as GalleryBody).chosen).to.include({ vanity_id: ecards[1]!.vanity_id });
    await page(stack.url, `/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}`);
    await page(stack.url, `/w/${widget.vanity_id}/sent`);
    expect(await counters(stack, widget.id)).to.deep.equal({ view: 2, form_open: 2 });
  });

  it('answers the same 404 for unknown, private and campaign widgets, on the API and all three pages', async () => {
    const privateWidget = await insertWidget(stack.models, accountId);
    const campaign = await insertPublicWidget(stack.models, accountId, { fields: { is_campaign: true } });
    const { widget: open, ecards } = await insertPublicWidget(stack.models, accountId);
    const answers = new Set<string>();
    for (const vanity of ['nope-not-here', privateWidget.vanity_id, campaign.widget.vanity_id, open.vanity_id.toUpperCase()]) {
      const api = await widgetData(stack.url, vanity);
      expect(api.status).to.equal(404);
      answers.add(JSON.stringify({ code: api.body.code, messages: api.body.messages }));
      for (const path of [`/w/${vanity}`, `/w/${vanity}/e/${ecards[0]!.vanity_id}`, `/w/${vanity}/sent`]) {
        const res = await page(stack.url, path);
        expect(res.status, path).to.equal(404);
        expect(res.headers.get('set-cookie')).to.equal(null);
        answers.add(await res.text());
      }
    }
    expect(answers.size).to.equal(2);
  });

  it('frames for any origin with an empty list, for the listed ones otherwise, http ones only with the flag', async () => {
    const frameAncestors = async (vanity: string) => /frame-ancestors ([^;]*)/.exec((await page(stack.url, `/w/${vanity}`)).headers.get('content-security-policy') ?? '')?.[1];
    const anyOrigin = await insertPublicWidget(stack.models, accountId);
    expect(await frameAncestors(anyOrigin.widget.vanity_id)).to.equal('*');
    const listed = await insertPublicWidget(stack.models, accountId, { wconfig: { allowedOrigins: ['https://shop.example', 'http://localhost:8080'] } });
    expect(await frameAncestors(listed.widget.vanity_id)).to.equal("'self' https://shop.example http://localhost:8080");
    const { frameAncestors: policy } = await import('../../services/widgets/public/framing.ts');
    expect(policy(['https://shop.example', 'http://localhost:8080'], false)).to.equal("'self' https://shop.example");
    for (const path of [`/w/${listed.widget.vanity_id}/e/${listed.ecards[0]!.vanity_id}`, `/w/${listed.widget.vanity_id}/sent`]) {
      const res = await page(stack.url, path);
      expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'self' https://shop.example http://localhost:8080");
    }
  });

  it('serves pages without cookies, cached nowhere, with no referrer, under a nonce, with the bridge', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { fields: { widgetcss: '.title{color:red}</style><script>alert(1)</script>' } });
    for (const path of [`/w/${widget.vanity_id}`, `/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}`, `/w/${widget.vanity_id}/sent`]) {
      const res = await page(stack.url, path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('set-cookie')).to.equal(null);
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
      expect(nonce).to.be.a('string');
      const html = await htmlOf(res);
      expect(html).to.include(`<script nonce="${nonce}">`).and.include('<script src="/embed/bridge.js" defer></script>');
      expect(html).to.include('.title{color:red}<\\/style><script>alert(1)</script>');
      expect(html.match(/<\/style>/g)).to.have.length(2);
    }
  });

  it('shows the form with one recipient row, the honeypot, the token, the localized error, and only the asked-for parts', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { wconfig: { locale: 'de', readReceiptEnabled: true, disableSocialWidgetTabs: true, shareButtonText: 'Jetzt verschicken' } });
    const html = await (await page(stack.url, `/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}?error=limitReached`)).text();
    expect(html).to.include('lang="de"').and.include(`action="/w/${widget.vanity_id}/send"`);
    expect(html).to.include('name="recipients[0][email]"').and.not.include('recipients[1]');
    expect(html).to.match(/<input type="text" name="fax_number" value="" tabindex="-1" autocomplete="off">/);
    expect(html).to.match(/name="form_token" value="[^"]+"/);
    expect(html).to.include('role="alert" data-slot="error">Von hier wurden vorerst zu viele Karten geschickt.');
    expect(html).to.include('name="getReadReceipt"').and.include('Jetzt verschicken').and.not.include('value="facebook"');
    expect(html).to.include(`<textarea name="personalMessage" rows="4" maxlength="${PERSONAL_MESSAGE_MAX}" aria-describedby="message-count" required>`);
    const unknown = await (await page(stack.url, `/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}?error=whatever`)).text();
    expect(unknown).to.include('Etwas ist schiefgegangen.');
    await ecards[0]!.update({ personal_message_box: false, predefined_schedule_on: true, predefined_schedule_forced: true, predefined_schedule: new Date(stack.services.now().getTime() + 86_400_000) });
    const forced = await (await page(stack.url, `/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}`)).text();
    expect(forced).not.to.include('name="personalMessage"').and.not.include('data-preset="now"');
    expect(forced).to.match(/<input type="hidden" name="sendAt" value="\d{4}-\d\d-\d\dT/);
    const plain = await insertPublicWidget(stack.models, accountId, { wconfig: { personalMessageOptional: true } });
    const plainHtml = await (await page(stack.url, `/w/${plain.widget.vanity_id}/e/${plain.ecards[0]!.vanity_id}`)).text();
    expect(plainHtml).not.to.include('name="getReadReceipt"');
    expect(plainHtml).to.include('value="facebook"').and.include('value="ecard_download"');
    expect(plainHtml).to.include(`<textarea name="personalMessage" rows="4" maxlength="${PERSONAL_MESSAGE_MAX}" aria-describedby="message-count"></textarea>`);
  });

  it('thanks, with the share link and the network\'s share URL for share modes, and only this service\'s card links', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId);
    const link = `${stack.config.publicBaseUrl}/e/abc123`;
    const html = await htmlAt(page(stack.url, `/w/${widget.vanity_id}/sent?ecard=${ecards[0]!.vanity_id}&mode=facebook&share=${encodeURIComponent(link)}`));
    expect(html).to.include(`https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(link)}`).and.include(`value="${link}"`).and.include('Send another');
    expect(html).to.include(`href="/w/${widget.vanity_id}" data-another`);
    const foreign = await (await page(stack.url, `/w/${widget.vanity_id}/sent?mode=facebook&share=${encodeURIComponent('https://evil.example/e/x')}`)).text();
    expect(foreign).not.to.include('evil.example');
    const email = await (await page(stack.url, `/w/${widget.vanity_id}/sent?mode=email`)).text();
    expect(email).to.include('Your eCard is on its way!');
  });

  it('shows Arabic right to left', async () => {
    const { widget } = await insertPublicWidget(stack.models, accountId, { wconfig: { locale: 'ar' } });
    const html = await (await page(stack.url, `/w/${widget.vanity_id}`)).text();
    expect(html).to.include('<html lang="ar" dir="rtl"');
  });

  it('weighs at most 100 KB gzipped without thumbnails (the page and what it loads from here)', async () => {
    const { widget, ecards } = await insertPublicWidget(stack.models, accountId, { ecards: 12 });
    for (const path of [`/w/${widget.vanity_id}`, `/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}`]) {
      const html = Buffer.from(await (await page(stack.url, path)).arrayBuffer());
      const bridge = await page(stack.url, '/embed/bridge.js');
      const extra = bridge.status === 200 ? Buffer.from(await bridge.arrayBuffer()) : Buffer.alloc(0);
      const total = gzipSync(html).length + gzipSync(extra).length;
      expect(total, path).to.be.at.most(100 * 1024);
    }
  });

  it('serves its own OpenAPI document, valid, equal to docs/widget-openapi.json', async () => {
    const res = await fetch(`${stack.url}/v2/widget/openapi.json`);
    expect(res.status).to.equal(200);
    const text = await res.text();
    const document = JSON.parse(text) as { servers: unknown; paths: Record<string, unknown> };
    const result = await new Validator().validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(document.servers).to.deep.equal([{ url: '/v2/widget' }]);
    expect(document.paths).to.have.property('/{vanity_id}');
    expect(readFileSync(join(packageRoot, 'docs', 'widget-openapi.json'), 'utf8')).to.equal(widgetOpenApiText(widgetApiRoutes), 'run npm run openapi');
    expect(`${JSON.stringify(JSON.parse(text), null, 2)}\n`).to.equal(widgetOpenApiText(widgetApiRoutes));
  });
});

describe('the widget under the public page limit', function () {
  this.timeout(60_000);
  let app: ExtraApp;
  before(async () => {
    // A fixed clock: the minute's window never turns during the test.
    const at = new Date('2026-11-26T10:00:10Z');
    app = await extraApp({ now: () => at, env: { PUBLIC_RATE_LIMIT_PER_MINUTE: '5', PUBLIC_RATE_LIMIT_POSTS_PER_MINUTE: '5' } });
  });
  const hit = (method: string, path: string) => fetch(`${app.url}${path}`, { method, redirect: 'manual', headers: { 'Content-Type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) });

  it('limits GETs of the pages, the loader and the widget API per kind (the API\'s 429 in its JSON envelope)', async () => {
    for (const kind of ['/w/nothing', '/embed/widget/nothing', '/v2/widget/nothing']) {
      for (let i = 0; i < 5; i++) expect((await hit('GET', kind)).status, kind).to.equal(404);
      const refused = await hit('GET', kind);
      expect(refused.status, kind).to.equal(429);
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      if (kind.startsWith('/v2/')) expect(await refused.json()).to.deep.include({ success: false, data: null, code: 'rate_limited' });
      else expect(await refused.text()).to.include('Too many requests');
    }
  });

  it('leaves the widget\'s POSTs (sends, verification) to their own per-IP limits', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await hit('POST', '/v2/widget/nothing/send')).status).to.not.equal(429);
      expect((await hit('POST', '/w/nothing/send')).status).to.not.equal(429);
    }
  });
});
