// The console's previews over HTTP: an eCard's card page (sealed, open) and email, saved or from the editor's unsaved
// form (a new eCard too), a brand's email; framed for the console only, never stored, another account's ids 404.
import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const P = '/v2/console/preview';
const NO_SOCIAL = { twitter: null, facebook: null, instagram: null, linkedin: null, youtube: null };

describe('console previews: card page, email, brand', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof ownerOnPages>>;
  let ecardId: number;
  let widgetId: number;
  let brandId: number;
  let foreign: { ecard: number; widget: number; brand: number };

  before(async () => {
    stack = await testStack();
    owner = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, owner.account.accountId);
    widgetId = widget.id;
    const ecard = await insertEcard(stack.models, owner.account.accountId, widget.id, { name: 'Winter' });
    await ecard.update({ header: 'Warm wishes, {{recipient_first_name}}', details: '<p>From {{sender_name}} to {{recipient_name}}</p>' });
    ecardId = ecard.id;
    const brand = await stack.models.Brand.create({
      account_id: owner.account.accountId, default_for: null, name: 'Northwind Gifts', logo_url: null, website: 'https://northwind.example', address: '1 Snow Lane',
      primary_color: '#a51c30', accent_color: null, background_color: null, text_color: null, footer_text: 'Sent with care by Northwind', social: NO_SOCIAL,
    });
    brandId = brand.id;
    const other = await newAccount(stack.models);
    const otherWidget = await insertWidget(stack.models, other.accountId);
    const otherBrand = await stack.models.Brand.create({
      account_id: other.accountId, default_for: null, name: 'Theirs', logo_url: null, website: null, address: null, primary_color: null, accent_color: null,
      background_color: null, text_color: null, footer_text: null, social: NO_SOCIAL,
    });
    foreign = { ecard: (await insertEcard(stack.models, other.accountId, otherWidget.id)).id, widget: otherWidget.id, brand: otherBrand.id };
  });

  const framedHeaders = (res: Response) => {
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'self'");
    expect(res.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
    expect(res.headers.get('cache-control')).to.include('no-store');
  };

  it('a saved eCard: sealed shows the envelope, open the card with the sample merge values; nothing posts', async () => {
    const sealed = await owner.browser.get(`${P}/ecard/${ecardId}?state=sealed`);
    framedHeaders(sealed);
    const csp = sealed.headers.get('content-security-policy')!;
    expect(csp).to.match(/script-src 'nonce-[^']+'/).and.include("form-action 'none'").and.include("connect-src 'none'");
    const sealedHtml = await sealed.text();
    expect(sealedHtml).to.include('class="envelope sealed"').and.include('is-sealed');
    expect(sealedHtml).not.to.include('data-open-action="').and.not.include('thanks-message');

    const open = await owner.browser.get(`${P}/ecard/${ecardId}`);
    framedHeaders(open);
    const openHtml = await open.text();
    expect(openHtml).to.include('is-open').and.not.include('class="envelope sealed"');
    expect(openHtml).to.include('Warm wishes, Alex').and.include('From Sam Lee to Alex Rivera');
    expect(openHtml).not.to.include('thanks-message');
  });

  it('the email of a saved eCard: the sample values, the [Preview] subject, the email policy', async () => {
    const res = await owner.browser.get(`${P}/email/${ecardId}`);
    framedHeaders(res);
    expect(res.headers.get('content-security-policy')).to.equal(
      "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
    );
    const html = await res.text();
    expect(html).to.include('Warm wishes, Alex').and.include('From Sam Lee to Alex Rivera').and.include('[Preview] Hello Alex Rivera');
  });

  it('POST: the unsaved header is shown, the row is unchanged; id 0 previews a new eCard in the form\'s widget', async () => {
    const form = { _csrf: owner.csrf, name: 'Winter', header: 'Unsaved {{recipient_name}}', details: '<p>Draft</p>', widgetid: String(widgetId) };
    const page = await owner.browser.post(`${P}/ecard/${ecardId}?state=open`, form);
    framedHeaders(page);
    expect(await page.text()).to.include('Unsaved Alex Rivera').and.include('Draft');
    const email = await owner.browser.post(`${P}/email/${ecardId}`, form);
    expect(await email.text()).to.include('Unsaved Alex Rivera');
    const row = await stack.models.Ecard.findByPk(ecardId, { rejectOnEmpty: true });
    expect(row.header).to.equal('Warm wishes, {{recipient_first_name}}');

    const fresh = await owner.browser.post(`${P}/ecard/0`, { ...form, header: 'Brand new for {{recipient_first_name}}' });
    framedHeaders(fresh);
    expect(await fresh.text()).to.include('Brand new for Alex');
    expect(await stack.models.Ecard.count({ where: { account_id: owner.account.accountId } })).to.equal(1);
  });

  it('a bad field is a 400 page; without CSRF a POST is refused', async () => {
    const bad = await owner.browser.post(`${P}/ecard/${ecardId}`, { _csrf: owner.csrf, name: 'Winter', ecardLink: 'javascript:alert(1)' });
    expect(bad.status).to.equal(400);
    expect(bad.headers.get('content-type')).to.include('text/html');
    const noCsrf = await owner.browser.post(`${P}/ecard/${ecardId}`, { name: 'Winter', header: 'x' });
    expect(noCsrf.status).to.equal(403);
    expect((await owner.browser.post(`${P}/brand/${brandId}`, { name: 'x' })).status).to.equal(403);
  });

  it('another account\'s eCard, widget or brand is 404', async () => {
    expect((await owner.browser.get(`${P}/ecard/${foreign.ecard}`)).status).to.equal(404);
    expect((await owner.browser.get(`${P}/email/${foreign.ecard}`)).status).to.equal(404);
    expect((await owner.browser.post(`${P}/ecard/0`, { _csrf: owner.csrf, name: 'X', widgetid: String(foreign.widget) })).status).to.equal(404);
    expect((await owner.browser.post(`${P}/ecard/${ecardId}`, { _csrf: owner.csrf, name: 'X', ecardbrandid: String(foreign.brand) })).status).to.equal(404);
    expect((await owner.browser.get(`${P}/brand/${foreign.brand}`)).status).to.equal(404);
    expect((await owner.browser.post(`${P}/brand/${foreign.brand}`, { _csrf: owner.csrf, name: 'X' })).status).to.equal(404);
  });

  it('a brand\'s email shows its name, colour and footer; the unsaved form\'s fields over it', async () => {
    const saved = await owner.browser.get(`${P}/brand/${brandId}`);
    framedHeaders(saved);
    const html = await saved.text();
    expect(html).to.include('Northwind Gifts').and.include('Sent with care by Northwind').and.include('1 Snow Lane');
    expect(html.toLowerCase()).to.include('#a51c30');
    const posted = await owner.browser.post(`${P}/brand/${brandId}`, {
      _csrf: owner.csrf, name: 'Southwind', primary_color: '#123abc', footer_text: 'Unsaved footer', twitter: 'https://x.com/southwind', font: 'serif',
    });
    framedHeaders(posted);
    const unsaved = await posted.text();
    expect(unsaved).to.include('Southwind').and.include('Unsaved footer').and.include('https://x.com/southwind');
    expect(unsaved.toLowerCase()).to.include('#123abc');
    expect((await stack.models.Brand.findByPk(brandId, { rejectOnEmpty: true })).name).to.equal('Northwind Gifts');
    const fresh = await owner.browser.post(`${P}/brand/0`, { _csrf: owner.csrf, name: 'Newco', footer_text: 'Hello from Newco' });
    expect(await fresh.text()).to.include('Hello from Newco');
    expect((await owner.browser.post(`${P}/brand/${brandId}`, { _csrf: owner.csrf, primary_color: 'red' })).status).to.equal(400);
  });
});
