// The eCard editor's pages over HTTP: the form, create (with a cover uploaded as multipart) and update of every kind
// of field, refusals shown in the form with nothing saved, other accounts' ids, CSRF, the page's CSP and the no-JS body.
import { expect } from 'chai';
import sharp from 'sharp';
import { call, expectSuccess, newAccount, newKey } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { hidden, ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const pngBytes = () => sharp({ create: { width: 64, height: 40, channels: 3, background: '#c0392b' } }).png().toBuffer();

describe('console eCard editor pages', function () {
  let stack: TestStack;
  before(async function () {
    stack = await testStack();
  });

  /** An owner on the pages with a widget, and a key that reads eCards through the key API. */
  async function setup() {
    const owner = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Birthdays' });
    const { key } = await newKey(stack.models, owner.account.accountId, { ecards: 'view' });
    const read = async (id: number) => expectSuccess(await call(stack.url, 'GET', `/v2/api/ecard/findOne/id/${id}`, { key })) as Record<string, unknown>;
    return { ...owner, widget, read };
  }

  it('creates an eCard with an uploaded cover from the new form', async function () {
    const { browser, csrf, widget, read, account } = await setup();
    const form = await browser.get(`/v2/console/ecards/new?widgetid=${widget.id}`);
    expect(form.status).to.equal(200);
    const html = await form.text();
    expect(html).to.include('enctype="multipart/form-data"').and.include(`name="widgetid" value="${widget.id}"`);
    const data = new FormData();
    for (const [k, v] of Object.entries({ _csrf: csrf, widgetid: String(widget.id), name: 'Happy birthday', emailSubject: 'For {{recipient_name}}', header: 'Cheers', details: '<div>Hello <strong>you</strong></div>', envelope_theme: 'kraft', ecard_mode: 'classic', envelope_confetti: 'on', color_envelope: '#c0392b', personalMessageBox: 'on', self_hosted_url: '' })) data.append(k, v);
    data.append('ecardimg', new Blob([await pngBytes()], { type: 'image/png' }), 'cover.png');
    const res = await browser.postMultipart('/v2/console/ecards', data);
    expect(res.status, await res.clone().text()).to.equal(303);
    const id = Number(/\/ecards\/(\d+)\?done=saved$/.exec(res.headers.get('location') ?? '')?.[1]);
    expect(id).to.be.greaterThan(0);
    const ecard = await read(id);
    expect(ecard).to.include({ name: 'Happy birthday', emailSubject: 'For {{recipient_name}}', header: 'Cheers', envelope_theme: 'kraft', ecard_mode: 'classic', envelope_confetti: true, envelope_auto_open: false, personalMessageBox: true, widgetid: widget.id });
    expect(ecard.details).to.equal('<div>Hello <strong>you</strong></div>');
    expect(JSON.parse(String(ecard.envelope_color_settings))).to.deep.equal({ envelope: '#c0392b' });
    expect(String(ecard.self_hosted_url)).to.match(/^https?:\/\/.+\/media\//);
    const row = await stack.models.Ecard.findByPk(id, { rejectOnEmpty: true });
    expect(row.account_id).to.equal(account.accountId);
    expect(row.thumb_file).to.be.a('string');

    const page = await (await browser.get(`/v2/console/ecards/${id}?done=saved`)).text();
    expect(page).to.include('The eCard is saved.').and.include('value="Happy birthday"').and.include('/v2/console/preview/ecard/' + id + '?state=sealed');
    expect(page).to.include(`action="/v2/console/ecards/${id}/test"`);
  });

  it('updates every kind of field; blank texts and unset colours become null', async function () {
    const { browser, csrf, widget, read, account } = await setup();
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Old' });
    const brand = await stack.models.Brand.create({ account_id: account.accountId, name: 'Acme', is_default: false, social: {} } as never);
    const res = await browser.post(`/v2/console/ecards/${ecard.id}`, {
      _csrf: csrf,
      name: 'New name',
      emailSubject: 'Subject {{sender_name}}',
      header: '',
      details: '<h1>Hi</h1>',
      ecardLink: 'https://example.com/cta',
      ecardLinkAltText: 'Shop now',
      url_redirect_after_send: 'https://example.com/thanks',
      self_hosted_url: 'https://cdn.example.com/cover.png',
      thumbnail_alt_label: 'A red cover',
      ecard_mode: 'popup_card',
      envelope_theme: 'night',
      envelope_bg_image_url: 'https://cdn.example.com/bg.jpg',
      envelope_audio_url: 'https://cdn.example.com/a.mp3',
      envelope_audio_repeat: 'on',
      envelope_video_url: 'https://cdn.example.com/v.mp4',
      envelope_auto_open: 'on',
      color_card: '#ffffff',
      color_text: 'navy',
      color_envelope: '',
      ecardbrandid: String(brand.id),
      canSchedule: 'on',
      predefinedScheduleOn: 'on',
      predefinedSchedule: '2027-01-04T09:00',
      publishOn: '2026-12-01T00:00',
      expireOn: '2027-02-01T00:00',
      disabled: 'on',
      og_title: 'Share me',
      og_description: 'A card',
    });
    expect(res.status, await res.clone().text()).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/v2/console/ecards/${ecard.id}?done=saved`);
    const saved = await read(ecard.id);
    expect(saved).to.include({
      name: 'New name', emailSubject: 'Subject {{sender_name}}', header: null, details: '<h1>Hi</h1>', ecardLink: 'https://example.com/cta', ecardLinkAltText: 'Shop now',
      url_redirect_after_send: 'https://example.com/thanks', self_hosted_url: 'https://cdn.example.com/cover.png', thumbnail_alt_label: 'A red cover', ecard_mode: 'popup_card',
      envelope_theme: 'night', envelope_bg_image_url: 'https://cdn.example.com/bg.jpg', envelope_audio_url: 'https://cdn.example.com/a.mp3', envelope_audio_repeat: true,
      envelope_video_url: 'https://cdn.example.com/v.mp4', envelope_auto_open: true, envelope_confetti: false, ecardbrandid: brand.id, canSchedule: true,
      predefinedScheduleOn: true, predefinedScheduleForced: false, personalMessageBox: false, disabled: true, og_title: 'Share me', og_description: 'A card',
    });
    expect(saved.predefinedSchedule).to.match(/^2027-01-04T09:00:00(\.000)?Z$/);
    expect(saved.publishOn).to.match(/^2026-12-01T00:00:00(\.000)?Z$/);
    expect(JSON.parse(String(saved.envelope_color_settings))).to.deep.equal({ card: '#ffffff', text: 'navy' });
    // The form shows what was stored: the dates as UTC datetime-local values, the brand chosen, the colour pickers.
    const page = await (await browser.get(`/v2/console/ecards/${ecard.id}`)).text();
    expect(page).to.include('name="predefinedSchedule" type="datetime-local" value="2027-01-04T09:00"');
    expect(page).to.include(`<option value="${brand.id}" selected>Acme</option>`);
    expect(page).to.include('<option value="night" selected>');
    expect(page).to.include('name="color_text" value="navy"').and.include('type="color" value="#ffffff" data-for="color_card"');
  });

  it('shows a refused field in the form with what was typed (400) and saves nothing', async function () {
    const { browser, csrf, widget, account } = await setup();
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Keep' });
    const bad = await browser.post(`/v2/console/ecards/${ecard.id}`, { _csrf: csrf, name: 'Typed name', ecardLink: 'javascript:alert(1)', envelope_theme: 'classic' });
    expect(bad.status).to.equal(400);
    const html = await bad.text();
    expect(html).to.include('<p class="field-error" id="ecardLink-error">Call-to-action link must be a web address starting with https:// or http://</p>').and.include('value="Typed name"');
    const colour = await browser.post(`/v2/console/ecards/${ecard.id}`, { _csrf: csrf, name: 'Typed name', envelope_theme: 'classic', color_card: 'not-a-colour' });
    expect(colour.status).to.equal(400);
    expect(await colour.text()).to.include('expected a colour').and.include('value="not-a-colour"');
    const created = await browser.post('/v2/console/ecards', { _csrf: csrf, widgetid: String(widget.id), name: 'X', envelope_theme: 'classic', url_redirect_after_send: 'ftp://x' });
    expect(created.status).to.equal(400);
    expect((await stack.models.Ecard.findByPk(ecard.id, { rejectOnEmpty: true })).name).to.equal('Keep');
    expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(1);
  });

  it('a refused save (no JavaScript) shows each message at its field in words and keeps every value typed', async function () {
    const { browser, csrf, widget } = await setup();
    const subject = 'S'.repeat(501);
    const res = await browser.post('/v2/console/ecards', {
      _csrf: csrf, widgetid: String(widget.id), name: 'Typed name', emailSubject: subject, header: 'Typed header', ecardLink: 'ftp://x', envelope_theme: 'kraft', envelope_confetti: 'on',
    });
    expect(res.status).to.equal(400);
    const html = await res.text();
    expect(html).to.include(`<input id="emailSubject" name="emailSubject" value="${subject}" maxlength="500" data-merge-target aria-invalid="true" aria-describedby="emailSubject-error">`);
    expect(html).to.include('<p class="field-error" id="emailSubject-error">Email subject is too long (at most 500 characters)</p>');
    expect(html).to.include('aria-invalid="true" aria-describedby="ecardLink-error">').and.include('<p class="field-error" id="ecardLink-error">Call-to-action link must be a web address starting with https:// or http://</p>');
    // Every message is at its field: none in raw field names, none left above the form.
    expect(html).not.to.include('emailSubject:').and.not.include('role="alert"');
    expect(html).to.include('value="Typed name"').and.include('value="Typed header"').and.include('value="ftp://x"').and.include('<option value="kraft" selected>').and.match(/name="envelope_confetti" checked/);
    expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(0);
  });

  it('keeps the chosen cover of a refused save as a pending upload, and the next save (no file chosen again) has it', async function () {
    const { browser, csrf, widget, read } = await setup();
    const data = new FormData();
    const fields = { _csrf: csrf, widgetid: String(widget.id), name: 'With cover', envelope_theme: 'classic', publishOn: '2030-01-02T09:00', expireOn: '2030-01-01T09:00', self_hosted_url: '' };
    for (const [k, v] of Object.entries(fields)) data.append(k, v);
    data.append('ecardimg', new Blob([await pngBytes()], { type: 'image/png' }), 'cover.png');
    const refused = await browser.postMultipart('/v2/console/ecards', data);
    expect(refused.status).to.equal(400);
    const html = await refused.text();
    expect(html).to.include('aria-invalid="true" aria-describedby="expireOn-error">');
    expect(html).to.match(/<p class="field-error" id="expireOn-error">Expire on: must be later than “Publish on” \(2030-01-02T09:00:00.000Z\)<\/p>/);
    expect(html).to.include('value="2030-01-02T09:00"').and.include('value="2030-01-01T09:00"');
    expect(html).to.include('Your chosen cover is kept: it is saved with the eCard');
    const kept = /name="self_hosted_url" type="url" value="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(kept).to.match(/^https?:\/\/.+\/media\/.+\.png$/);
    expect(html).to.include(`<img id="cover-current" src="`);
    expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(0);

    // Corrected, sent again as the form now holds it: the cover is the one chosen before.
    const saved = await browser.post('/v2/console/ecards', { ...fields, expireOn: '2030-02-01T09:00', self_hosted_url: kept });
    expect(saved.status, await saved.clone().text()).to.equal(303);
    const id = Number(/\/ecards\/(\d+)\?done=saved$/.exec(saved.headers.get('location') ?? '')?.[1]);
    expect((await read(id)).self_hosted_url).to.equal(kept);
    expect((await stack.models.Ecard.findByPk(id, { rejectOnEmpty: true })).thumb_file).to.be.a('string');
  });

  it('refuses a cover over the size limit at its field, in MB, and keeps the rest of the form', async function () {
    const { browser, csrf, widget } = await setup();
    const html = await (await browser.get(`/v2/console/ecards/new?widgetid=${widget.id}`)).text();
    // The limit the page gives the browser's check (web/console/ecard-cover.js).
    expect(html).to.include(`data-max-bytes="${5 * 1024 * 1024}" data-max-megabytes="5"`).and.include('at most 5 MB');
    const data = new FormData();
    for (const [k, v] of Object.entries({ _csrf: csrf, widgetid: String(widget.id), name: 'Too big', envelope_theme: 'classic' })) data.append(k, v);
    const big = Buffer.concat([await pngBytes(), Buffer.alloc(5 * 1024 * 1024)]);
    data.append('ecardimg', new Blob([big], { type: 'image/png' }), 'big.png');
    const res = await browser.postMultipart('/v2/console/ecards', data);
    expect(res.status).to.equal(413);
    const page = await res.text();
    expect(page).to.include('<p class="field-error" id="ecardimg-error">Cover image is larger than 5 MB</p>').and.include('aria-describedby="cover-status ecardimg-error"');
    expect(page).to.include('value="Too big"').and.not.include('Your chosen cover is kept');
    expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(0);
  });

  it("answers 404 for another account's eCard or widget, and refuses a form without the CSRF token", async function () {
    const { browser, csrf, widget, account } = await setup();
    const other = await newAccount(stack.models);
    const theirWidget = await insertWidget(stack.models, other.accountId);
    const theirs = await insertEcard(stack.models, other.accountId, theirWidget.id, { name: 'Theirs' });
    expect((await browser.get(`/v2/console/ecards/${theirs.id}`)).status).to.equal(404);
    expect((await browser.get(`/v2/console/ecards/new?widgetid=${theirWidget.id}`)).status).to.equal(404);
    expect((await browser.get('/v2/console/ecards/new?widgetid=999999999')).status).to.equal(404);
    expect((await browser.post(`/v2/console/ecards/${theirs.id}`, { _csrf: csrf, name: 'Mine now', envelope_theme: 'classic' })).status).to.equal(404);
    expect((await browser.post('/v2/console/ecards', { _csrf: csrf, widgetid: String(theirWidget.id), name: 'In theirs', envelope_theme: 'classic' })).status).to.equal(404);
    expect((await stack.models.Ecard.findByPk(theirs.id, { rejectOnEmpty: true })).name).to.equal('Theirs');
    expect(await stack.models.Ecard.count({ where: { widget_id: theirWidget.id } })).to.equal(1);

    const mine = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Mine' });
    expect((await browser.post(`/v2/console/ecards/${mine.id}`, { name: 'Forged', envelope_theme: 'classic' })).status).to.equal(403);
    const data = new FormData();
    data.append('_csrf', 'wrong');
    data.append('name', 'Forged');
    data.append('widgetid', String(widget.id));
    expect((await browser.postMultipart('/v2/console/ecards', data)).status).to.equal(403);
    expect((await stack.models.Ecard.findByPk(mine.id, { rejectOnEmpty: true })).name).to.equal('Mine');
    expect(await stack.models.Ecard.count({ where: { widget_id: widget.id } })).to.equal(1);
  });

  it("sends a style nonce, the same in the CSP and Trix's meta tag and nothing wider; without JavaScript the body is a textarea", async function () {
    const { browser, widget, account } = await setup();
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    for (const path of [`/v2/console/ecards/${ecard.id}`, `/v2/console/ecards/new?widgetid=${widget.id}`]) {
      const res = await browser.get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      const html = await res.text();
      // Handlebars writes `=` of the base64 nonce as &#x3D; (the browser reads it back).
      const nonce = /<meta name="trix-csp-nonce" content="([^"]+)">/.exec(html)?.[1]?.replaceAll('&#x3D;', '=');
      expect(nonce, path).to.be.a('string');
      expect(csp).to.include(`style-src 'self' 'nonce-${nonce}'`).and.not.include('unsafe-inline');
      expect(csp).to.match(/default-src 'self'/);
      expect(csp.match(/style-src [^;]*/)?.[0]).to.equal(`style-src 'self' 'nonce-${nonce}'`);
      expect(html).to.match(/<textarea id="details-source" name="details"[^>]*>/);
      expect(html).to.include('/v2/console/assets/trix.js').and.include('/v2/console/assets/ecard-editor.js');
      expect(html).to.include('formtarget="preview-card"').and.include('formenctype="application/x-www-form-urlencoded"');
    }
    // Two loads, two nonces.
    const a = /trix-csp-nonce" content="([^"]+)"/.exec(await (await browser.get(`/v2/console/ecards/${ecard.id}`)).text())?.[1];
    const b = /trix-csp-nonce" content="([^"]+)"/.exec(await (await browser.get(`/v2/console/ecards/${ecard.id}`)).text())?.[1];
    expect(a).to.not.equal(b);
  });

  it('offers the merge tags of the widget and the stored body in the no-JS textarea', async function () {
    const { browser, widget, account } = await setup();
    await widget.update({ merge_tag_defaults: { company: 'Acme' } });
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    const html = await (await browser.get(`/v2/console/ecards/${ecard.id}`)).text();
    expect(html).to.include('<option value="recipient_name">{{recipient_name}}</option>').and.include('<option value="company">{{company}}</option>');
    expect(html).to.include('&lt;p&gt;Dear {{recipient_first_name}}&lt;/p&gt;</textarea>');
    expect(hidden(html, '_csrf')).to.not.equal('');
  });
});
