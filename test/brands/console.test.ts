// The console's brand pages over HTTP: list, create and update through the editor's form (urlencoded and multipart
// with a logo), moving the default, refusals re-rendering the form, delete (the default refused, one in use through
// its confirmation), another account's brand 404, CSRF. Results are read back through the key API.
import { expect } from 'chai';
import sharp from 'sharp';
import { call, expectSuccess, newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

interface BrandOut {
  id: number;
  name: string;
  is_default: boolean;
  logo_url: string | null;
  primary_color: string | null;
  accent_color: string | null;
  font: string;
  address: string | null;
  social: Record<string, string | null>;
}

/** Every editor field, blank unless given (as a browser posts the whole form). */
const brandForm = (fields: Record<string, string>) => ({
  name: '', logo_url: '', website: '', address: '', primary_color: '', accent_color: '', background_color: '', text_color: '', font: 'system', footer_text: '',
  twitter: '', facebook: '', instagram: '', linkedin: '', youtube: '', ...fields,
});

describe('console pages: brands', function () {
  this.timeout(30_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  const brandsOf = async (key: string) => expectSuccess(await call(stack.url, 'GET', '/v2/api/brand/list?perPage=100', { key })) as BrandOut[];

  it('creates a brand by form, updates it, moves the default to it; the list shows badge, swatches and the editor its values', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const empty = await browser.get('/v2/console/brands/new');
    expect(empty.status).to.equal(200);
    const form = await empty.text();
    for (const name of ['name', 'is_default', 'logo_url', 'website', 'address', 'primary_color', 'accent_color', 'background_color', 'text_color', 'font', 'footer_text', 'twitter', 'facebook', 'instagram', 'linkedin', 'youtube']) {
      expect(form, name).to.include(`name="${name}"`);
    }
    expect(form).to.include('formaction="/v2/console/preview/brand/0"').and.include('formtarget="brand-preview"');

    const made = await browser.post('/v2/console/brands', { _csrf: csrf, ...brandForm({ name: 'Acme', primary_color: '#112233', accent_color: '#f60', font: 'serif', address: 'Main St 1\nTown', twitter: 'https://x.com/acme' }) });
    expect(made.status, await made.clone().text()).to.equal(303);
    const location = made.headers.get('location')!;
    expect(location).to.match(/^\/v2\/console\/brands\/\d+\?done=saved$/);
    const id = Number(/brands\/(\d+)/.exec(location)![1]);
    let acme = (await brandsOf(account.liveKey)).find((b) => b.id === id)!;
    expect(acme).to.deep.include({ name: 'Acme', is_default: false, primary_color: '#112233', accent_color: '#f60', font: 'serif', address: 'Main St 1\nTown' });
    expect(acme.social.twitter).to.equal('https://x.com/acme');

    const editor = await (await browser.get(location)).text();
    expect(editor).to.include('The brand is saved.').and.include('value="#112233"').and.include('src="/v2/console/preview/brand/' + id + '"');
    expect(editor).to.include('class="preview-frame"');

    // Clearing a colour, changing the font and making it the default.
    const updated = await browser.post(`/v2/console/brands/${id}`, { _csrf: csrf, ...brandForm({ name: 'Acme Co', primary_color: '#112233', font: 'mono', is_default: 'on' }) });
    expect(updated.status).to.equal(303);
    const brands = await brandsOf(account.liveKey);
    acme = brands.find((b) => b.id === id)!;
    expect(acme).to.deep.include({ name: 'Acme Co', is_default: true, accent_color: null, font: 'mono', address: null });
    expect(brands.filter((b) => b.is_default).map((b) => b.id)).to.deep.equal([id]);

    const list = await (await browser.get('/v2/console/brands')).text();
    expect(list).to.include('Acme Co').and.include('<span class="badge">Default</span>').and.include('fill="#112233"').and.include('href="/v2/console/brands/new"');
    // Swatches are SVG fills: no inline style anywhere (the CSP forbids it).
    expect(list).not.to.include('style=');
  });

  it('a logo upload (multipart) is stored as the account’s media and becomes logo_url, served back', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
    const form = new FormData();
    for (const [k, v] of Object.entries({ _csrf: csrf, ...brandForm({ name: 'Logo Ltd', primary_color: '#c81e1e' }) })) form.append(k, v);
    form.append('logo_file', new Blob([png], { type: 'image/png' }), 'logo.png');
    const res = await browser.postMultipart('/v2/console/brands', form);
    expect(res.status, await res.clone().text()).to.equal(303);
    const brand = (await brandsOf(account.liveKey)).find((b) => b.name === 'Logo Ltd')!;
    expect(brand.logo_url).to.match(new RegExp(`^${stack.url}/media/[\\w-]+\\.png$`));
    const served = await fetch(brand.logo_url!);
    expect(served.status).to.equal(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).to.equal(true);
    expect(await stack.models.MediaFile.count({ where: { account_id: account.accountId } })).to.equal(1);
    // Saving again without a file keeps the uploaded logo's URL (its own media, even on this http test server).
    const editor = await (await browser.get(`/v2/console/brands/${brand.id}`)).text();
    expect(editor).to.include(`src="${brand.logo_url}"`);
    const again = await browser.post(`/v2/console/brands/${brand.id}`, { _csrf: csrf, ...brandForm({ name: 'Logo Ltd', logo_url: brand.logo_url! }) });
    expect(again.status).to.equal(303);
    expect((await brandsOf(account.liveKey)).find((b) => b.id === brand.id)!.logo_url).to.equal(brand.logo_url);
    // The email preview from the unsaved form shows that logo too (the preview once refused it as not https).
    const preview = await browser.post(`/v2/console/preview/brand/${brand.id}`, { _csrf: csrf, ...brandForm({ name: 'Logo Ltd', logo_url: brand.logo_url! }) });
    expect(preview.status).to.equal(200);
    expect(await preview.text()).to.include(`src="${brand.logo_url}"`);
    // A file that is not an image: refused with the reason, the form as typed.
    const bad = new FormData();
    for (const [k, v] of Object.entries({ _csrf: csrf, ...brandForm({ name: 'Not an image' }) })) bad.append(k, v);
    bad.append('logo_file', new Blob(['hello'], { type: 'image/png' }), 'logo.png');
    const refused = await browser.postMultipart('/v2/console/brands', bad);
    expect(refused.status).to.equal(400);
    expect(await refused.text()).to.include('must be a PNG, JPEG, GIF or WebP image').and.include('value="Not an image"');
  });

  it('a bad colour or an http URL re-renders the form with the reason and the typed values (400); nothing saved', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const before = await brandsOf(account.liveKey);
    const colour = await browser.post('/v2/console/brands', { _csrf: csrf, ...brandForm({ name: 'Typed name', primary_color: 'red', footer_text: 'kept footer' }) });
    expect(colour.status).to.equal(400);
    const html = await colour.text();
    expect(html).to.include('primary_color: expected a colour as #rgb or #rrggbb').and.include('value="Typed name"').and.include('value="red"').and.include('kept footer');
    const website = await browser.post('/v2/console/brands', { _csrf: csrf, ...brandForm({ name: 'Typed', website: 'http://acme.example' }) });
    expect(website.status).to.equal(400);
    expect(await website.text()).to.include('website: expected an https URL');
    const noName = await browser.post(`/v2/console/brands/${before[0]!.id}`, { _csrf: csrf, ...brandForm({ name: '' }) });
    expect(noName.status).to.equal(422);
    expect(await brandsOf(account.liveKey)).to.deep.equal(before);
  });

  it('delete: the default is refused (422, its reason); unused goes at once; one in use asks first, then its eCards fall back', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const [standard] = await brandsOf(account.liveKey);
    const refused = await browser.post(`/v2/console/brands/${standard!.id}/delete`, { _csrf: csrf });
    expect(refused.status).to.equal(422);
    expect(await refused.text()).to.include('is the account&#x27;s default');

    const spare = expectSuccess(await call(stack.url, 'POST', '/v2/api/brand/save', { key: account.liveKey, body: { brand: { name: 'Spare' } } })) as BrandOut;
    const gone = await browser.post(`/v2/console/brands/${spare.id}/delete`, { _csrf: csrf });
    expect(gone.status).to.equal(303);
    expect(gone.headers.get('location')).to.equal('/v2/console/brands?done=deleted');

    const used = expectSuccess(await call(stack.url, 'POST', '/v2/api/brand/save', { key: account.liveKey, body: { brand: { name: 'Used' } } })) as BrandOut;
    const widget = await insertWidget(stack.models, account.accountId);
    const ecards = [await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id)];
    await stack.models.Ecard.update({ ecardbrandid: used.id }, { where: { id: ecards.map((e) => e.id) } });
    const asked = await browser.post(`/v2/console/brands/${used.id}/delete`, { _csrf: csrf });
    expect(asked.status).to.equal(200);
    const confirm = await asked.text();
    expect(confirm).to.include('2 eCards').and.include('name="confirm" value="yes"');
    expect((await brandsOf(account.liveKey)).map((b) => b.id)).to.include(used.id);
    const deleted = await browser.post(`/v2/console/brands/${used.id}/delete`, { _csrf: csrf, confirm: 'yes' });
    expect(deleted.status).to.equal(303);
    expect(deleted.headers.get('location')).to.equal('/v2/console/brands?done=deleted');
    expect((await brandsOf(account.liveKey)).map((b) => b.id)).to.deep.equal([standard!.id]);
    const after = await stack.models.Ecard.findAll({ where: { id: ecards.map((e) => e.id) } });
    expect(after.map((e) => e.ecardbrandid)).to.deep.equal([null, null]);
    expect(await (await browser.get('/v2/console/brands?done=deleted')).text()).to.include('The brand is deleted');
  });

  it('another account’s brand is 404 on every brand page; a form without the CSRF token or from another origin is refused', async () => {
    const { account, browser, csrf } = await ownerOnPages(stack);
    const other = await newAccount(stack.models);
    const [theirs] = await brandsOf(other.liveKey);
    expect((await browser.get(`/v2/console/brands/${theirs!.id}`)).status).to.equal(404);
    expect((await browser.get(`/v2/console/brands/${theirs!.id}/delete`)).status).to.equal(404);
    expect((await browser.post(`/v2/console/brands/${theirs!.id}`, { _csrf: csrf, ...brandForm({ name: 'Mine now' }) })).status).to.equal(404);
    expect((await browser.post(`/v2/console/brands/${theirs!.id}/delete`, { _csrf: csrf, confirm: 'yes' })).status).to.equal(404);
    expect((await brandsOf(other.liveKey))[0]!.name).to.equal(theirs!.name);

    expect((await browser.post('/v2/console/brands', brandForm({ name: 'No token' }))).status).to.equal(403);
    expect((await browser.post('/v2/console/brands', { _csrf: csrf, ...brandForm({ name: 'Elsewhere' }) }, 'https://evil.example')).status).to.equal(403);
    const multipart = new FormData();
    multipart.append('_csrf', 'wrong');
    multipart.append('name', 'Wrong token');
    expect((await browser.postMultipart('/v2/console/brands', multipart)).status).to.equal(403);
    expect((await brandsOf(account.liveKey)).map((b) => b.name)).to.deep.equal([(await brandsOf(account.liveKey))[0]!.name]);
  });
});
