// The widget pages over HTTP, as a browser without JavaScript uses them: the list, create, copy with a limit, each
// tab's form (saved through the key API's rules, a refused value shown on the page with nothing saved), the
// Customize preview (saved and unsaved), the inline confirmations (directory rule off; delete in use with a
// step-up), CSRF refusals and another account's widget answering 404 on every route.
import { expect } from 'chai';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { hidden, OWNER_PASSWORD, ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Pages = Awaited<ReturnType<typeof ownerOnPages>>;

/** A page's text as the browser shows it (Handlebars escapes `&<>"'=` and backticks). */
const decoded = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`').replace(/&amp;/g, '&');

describe('console widget pages: list, tabs, previews and inline confirmations', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let owner: Pages;
  before(async () => {
    stack = await testStack();
    owner = await ownerOnPages(stack);
  });

  const post = (path: string, form: Record<string, string>) => owner.browser.post(path, { _csrf: owner.csrf, ...form });
  const text = async (path: string) => {
    const res = await owner.browser.get(path);
    expect(res.status, path).to.equal(200);
    return decoded(await res.text());
  };
  const row = (id: number) => stack.models.Widget.findByPk(id, { rejectOnEmpty: true });

  it('creates a widget from the list (303 to its eCards tab); the list shows eCards, sends this month and visibility; an empty name is refused with the form kept', async () => {
    const created = await post('/v2/console/widgets', { name: 'Thanks team' });
    expect(created.status).to.equal(303);
    const location = created.headers.get('location')!;
    const id = Number(/\/widgets\/(\d+)\/ecards\?done=created$/.exec(location)?.[1]);
    const widget = await row(id);
    expect(widget.account_id).to.equal(owner.account.accountId);
    expect(widget.name).to.equal('Thanks team');
    expect(widget.public_share_enabled).to.equal(false);

    const ecard = await insertEcard(stack.models, owner.account.accountId, id, { name: 'Bravo' });
    await insertEcard(stack.models, owner.account.accountId, id, { name: 'Cheers', display_order: 1 });
    await insertSend(stack.models, ecard, 'rita@example.com');
    const list = await text('/v2/console/widgets');
    const line = new RegExp(`<a href="/v2/console/widgets/${id}/ecards">Thanks team</a></th>\\s*<td data-label="eCards">2</td>\\s*<td data-label="Sends this month">1</td>\\s*<td data-label="Visibility"><span class="badge">Private</span>`);
    expect(list).to.match(line);

    const refused = await post('/v2/console/widgets', { name: '   ' });
    expect(refused.status).to.equal(422);
    expect(await refused.text()).to.include('role="alert"').and.include('name is required');

    const opened = await owner.browser.get(`/v2/console/widgets/${id}`);
    expect(opened.status).to.equal(303);
    expect(opened.headers.get('location')).to.equal(`/v2/console/widgets/${id}/ecards`);
  });

  it('copies a widget with its first `limit` eCards; a bad limit is refused on the list', async () => {
    const source = await insertWidget(stack.models, owner.account.accountId, { name: 'Source' });
    for (let i = 0; i < 3; i++) await insertEcard(stack.models, owner.account.accountId, source.id, { name: `Card ${i}`, display_order: i });
    const copied = await post(`/v2/console/widgets/${source.id}/copy`, { limit: '2' });
    expect(copied.status).to.equal(303);
    expect(copied.headers.get('location')).to.equal('/v2/console/widgets?done=copied');
    const copy = await stack.models.Widget.findOne({ where: { account_id: owner.account.accountId, name: 'Copy - Source' }, rejectOnEmpty: true });
    const names = (await stack.models.Ecard.findAll({ where: { widget_id: copy.id }, order: [['display_order', 'ASC']] })).map((e) => e.name);
    expect(names).to.deep.equal(['Card 0', 'Card 1']);
    expect(await text('/v2/console/widgets?done=copied')).to.include('The widget is copied.');
    const bad = await post(`/v2/console/widgets/${source.id}/copy`, { limit: '0' });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.include('limit');
  });

  it('pages the list 20 widgets at a time', async () => {
    const many = await ownerOnPages(stack);
    for (let i = 0; i < 23; i++) await insertWidget(stack.models, many.account.accountId, { name: `W${String(i).padStart(2, '0')}` });
    const first = decoded(await (await many.browser.get('/v2/console/widgets')).text());
    expect(first).to.include('Page 1 of 2').and.include('href="/v2/console/widgets?page=2"');
    const second = await (await many.browser.get('/v2/console/widgets?page=2')).text();
    expect((second.match(/<th scope="row">/g) ?? []).length).to.equal(3);
  });

  it('saves Customize (display keys merged into wconfig, style columns); a bad colour is a 400 page with the typed values and nothing saved', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Look' });
    const page = await text(`/v2/console/widgets/${widget.id}/customize`);
    expect(page).to.include('<title>Look · ').and.include('aria-current="page">Customize</a>');
    expect(page).to.include(`class="preview-frame" name="widget-preview" title="Preview of the widget" src="/v2/console/preview/widget/${widget.id}"`);
    expect(page).to.include(`formaction="/v2/console/preview/widget/${widget.id}" formtarget="widget-preview"`);

    const saved = await post(`/v2/console/widgets/${widget.id}/customize`, { layout: 'masonry', thumbColumns: '4', theme: 'dark', stylebg: '#112233', style_fontsize: '18', readReceiptEnabled: 'on', widgetcss: '.x { color: red }' });
    expect(saved.status).to.equal(303);
    expect(saved.headers.get('location')).to.equal(`/v2/console/widgets/${widget.id}/customize?done=saved`);
    const after = await row(widget.id);
    expect(after.wconfig).to.deep.equal({ layout: 'masonry', thumbColumns: 4, theme: 'dark', readReceiptEnabled: true });
    expect([after.stylebg, after.style_fontsize]).to.deep.equal(['#112233', 18]);
    expect(after.widgetcss).to.include('color: red');

    const refused = await post(`/v2/console/widgets/${widget.id}/customize`, { layout: 'grid', stylebg: 'not-a-colour', styletext: '#abcdef' });
    expect(refused.status).to.equal(400);
    const html = await refused.text();
    expect(html).to.include('<p class="field-error" id="stylebg-error">Page background: expected a CSS colour');
    expect(html).to.match(/<input id="stylebg" name="stylebg" value="not-a-colour" maxlength="64" data-colour aria-invalid="true" aria-describedby="colour_hint stylebg-error">/);
    expect(html).to.include('value="not-a-colour"').and.include('value="#abcdef"').and.not.include('role="alert"');
    const unchanged = await row(widget.id);
    expect([unchanged.stylebg, unchanged.styletext, unchanged.wconfig.layout]).to.deep.equal(['#112233', null, 'masonry']);

    const outOfBounds = await post(`/v2/console/widgets/${widget.id}/customize`, { thumbColumns: '9' });
    expect(outOfBounds.status).to.equal(400);
    expect(await outOfBounds.text()).to.include('<p class="field-error" id="thumbColumns-error">Columns is too large (at most 6)</p>').and.include('value="9"');
    expect((await row(widget.id)).wconfig.thumbColumns).to.equal(4);
  });

  it('previews the saved widget (private too) and the unsaved form in a frame; nothing is saved, a bad value is a 400 frame', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Preview me' });
    await insertEcard(stack.models, owner.account.accountId, widget.id, { name: 'Gallery card' });
    const saved = await owner.browser.get(`/v2/console/preview/widget/${widget.id}`);
    expect(saved.status).to.equal(200);
    expect(saved.headers.get('content-security-policy')).to.match(/^default-src 'none'; .*script-src 'self' 'nonce-[^']+'.*; frame-ancestors 'self'$/);
    expect(saved.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
    expect(await saved.text()).to.include('Gallery card');

    const unsaved = await post(`/v2/console/preview/widget/${widget.id}`, { stylebg: '#fedcba', layout: 'inline' });
    expect(unsaved.status).to.equal(200);
    const html = await unsaved.text();
    expect(html).to.include('#fedcba').and.include('Gallery card');
    const after = await row(widget.id);
    expect(after.stylebg).to.equal(null);
    expect(after.wconfig).to.deep.equal({ theme: 'light' });

    const bad = await post(`/v2/console/preview/widget/${widget.id}`, { stylelink: 'nope' });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.include('stylelink: expected a CSS colour');
  });

  it('Share: the public switch and origins save; the snippet and the hosted link are shown', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Share me' });
    const before = await text(`/v2/console/widgets/${widget.id}/share`);
    expect(before).to.include(`readonly spellcheck="false"><script src="${stack.url}/embed/widget/${widget.vanity_id}" async></script>\n<div id="cardsvc_widget_${widget.vanity_id}"></div></textarea>`);
    expect(before).to.include('This link works once the widget is public');

    const on = await post(`/v2/console/widgets/${widget.id}/share`, { public_share_enabled: 'on', allowedOrigins: 'https://a.example.com\nhttps://b.example.com/' });
    expect(on.status).to.equal(303);
    expect(on.headers.get('location')).to.equal(`/v2/console/widgets/${widget.id}/share?done=public_on`);
    const after = await row(widget.id);
    expect(after.public_share_enabled).to.equal(true);
    expect(after.wconfig.allowedOrigins).to.deep.equal(['https://a.example.com', 'https://b.example.com/']);
    const shown = await text(`/v2/console/widgets/${widget.id}/share?done=public_on`);
    expect(shown).to.include(`<a href="${stack.url}/w/${widget.vanity_id}" class="hosted-link">`).and.include('The widget is public');

    const bad = await post(`/v2/console/widgets/${widget.id}/share`, { public_share_enabled: 'on', allowedOrigins: 'https://ok.example.com\nhttps://x.example.com/path' });
    expect(bad.status).to.equal(400);
    const html = await bad.text();
    expect(html).to.include('allowedOrigins').and.include('https://x.example.com/path');
    expect((await row(widget.id)).wconfig.allowedOrigins).to.have.length(2);

    const off = await post(`/v2/console/widgets/${widget.id}/share`, { allowedOrigins: '' });
    expect(off.headers.get('location')).to.equal(`/v2/console/widgets/${widget.id}/share?done=public_off`);
    const cleared = await row(widget.id);
    expect(cleared.public_share_enabled).to.equal(false);
    expect(cleared.wconfig).to.not.have.property('allowedOrigins');
  });

  it('Settings: name, sender rules and domain lists save; a bad domain keeps the typed values', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Rules' });
    const saved = await post(`/v2/console/widgets/${widget.id}/settings`, {
      name: 'Rules renamed', email_verification_required: 'on', dir_session_timeout_minutes: '45', dailySendCap: '50',
      sender_email_domains_whitelist: 'Example.com, corp.example.org', recipient_email_domains_whitelist: '',
    });
    expect(saved.status).to.equal(303);
    const after = await row(widget.id);
    expect([after.name, after.email_verification_required, after.dir_session_timeout_minutes]).to.deep.equal(['Rules renamed', true, 45]);
    expect(after.sender_email_domains_whitelist).to.equal('example.com\ncorp.example.org');
    expect(after.recipient_email_domains_whitelist).to.equal(null);
    expect(after.wconfig).to.deep.equal({ theme: 'light', dailySendCap: 50 });
    expect(await text(`/v2/console/widgets/${widget.id}/settings`)).to.include('<title>Rules renamed · ');

    const bad = await post(`/v2/console/widgets/${widget.id}/settings`, { name: 'Typed', sender_email_domains_whitelist: 'not a domain!' });
    expect(bad.status).to.equal(400);
    const html = await bad.text();
    expect(html).to.include('is not a domain').and.include('value="Typed"');
    expect((await row(widget.id)).name).to.equal('Rules renamed');

    // Without JavaScript: each message at its field in words, every typed value kept.
    const caps = await post(`/v2/console/widgets/${widget.id}/settings`, { name: 'Typed again', dailySendCap: '0', limitEmailsPerSession: '7', email_verification_required: 'on' });
    expect(caps.status).to.equal(400);
    const capsHtml = await caps.text();
    expect(capsHtml).to.include('value="0" placeholder="200" aria-invalid="true" aria-describedby="daily_cap_hint dailySendCap-error">');
    expect(capsHtml).to.include('<p class="field-error" id="dailySendCap-error">Sends per day is too small (at least 1)</p>');
    expect(capsHtml).to.include('value="Typed again"').and.include('value="7"').and.match(/name="email_verification_required" type="checkbox" checked/).and.not.include('dailySendCap:');
  });

  it('the directory rule: on at once; off only through the inline confirmation, which spends its token', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Directory' });
    expect((await post(`/v2/console/widgets/${widget.id}/directory`, { rule: 'on' })).headers.get('location')).to.equal(`/v2/console/widgets/${widget.id}/settings?done=directory_on`);
    expect((await row(widget.id)).dir_sender_must_be_in_directory).to.equal(true);

    const asked = await post(`/v2/console/widgets/${widget.id}/directory`, { rule: 'off' });
    expect(asked.status).to.equal(409);
    const html = await asked.text();
    expect(html).to.include('Let anyone send from this widget?').and.include('name="confirm" value="yes"');
    expect((await row(widget.id)).dir_sender_must_be_in_directory).to.equal(true);

    const confirmed = await post(`/v2/console/widgets/${widget.id}/directory`, { rule: 'off', confirm: 'yes' });
    expect(confirmed.status).to.equal(303);
    expect(confirmed.headers.get('location')).to.equal(`/v2/console/widgets/${widget.id}/settings?done=directory_off`);
    expect((await row(widget.id)).dir_sender_must_be_in_directory).to.equal(false);
    const token = await stack.models.ConfirmationToken.findOne({ where: { account_id: owner.account.accountId, purpose: 'widget_dir_sender_off' }, rejectOnEmpty: true });
    expect(token.used_at).to.not.equal(null);
  });

  it('deletes an unused widget from its confirmation page; an in-use one after the inline confirmation (step-up, then done)', async () => {
    const unused = await insertWidget(stack.models, owner.account.accountId, { name: 'Unused' });
    const confirm = await text(`/v2/console/widgets/${unused.id}/delete`);
    expect(confirm).to.include('Nothing uses it.').and.not.include('name="confirm"');
    const deleted = await post(`/v2/console/widgets/${unused.id}/delete`, {});
    expect(deleted.status).to.equal(303);
    expect(deleted.headers.get('location')).to.equal('/v2/console/widgets?done=deleted');
    expect(await stack.models.Widget.findByPk(unused.id)).to.equal(null);
    expect(await text('/v2/console/widgets?done=deleted')).to.include('The widget is deleted with its eCards.');

    const used = await insertWidget(stack.models, owner.account.accountId, { name: 'Used' });
    const ecard = await insertEcard(stack.models, owner.account.accountId, used.id);
    await insertSend(stack.models, ecard, 'pat@example.com');
    const asked = await post(`/v2/console/widgets/${used.id}/delete`, {});
    expect(asked.status).to.equal(409);
    const html = await asked.text();
    expect(html).to.include('It is in use').and.include('1 eCard(s)').and.include('name="confirm" value="yes"');
    expect(await stack.models.Widget.findByPk(used.id)).to.not.equal(null);

    // Confirming asks for the password first (a sign-in is no step-up), then comes back to the confirmation.
    const confirmed = await post(`/v2/console/widgets/${used.id}/delete`, { confirm: 'yes' });
    expect(confirmed.status).to.equal(303);
    expect(confirmed.headers.get('location')).to.equal(`/v2/console/step-up?next=${encodeURIComponent(`/v2/console/widgets/${used.id}/delete`)}`);
    expect(await stack.models.Widget.findByPk(used.id)).to.not.equal(null);
    const stepUp = await text(confirmed.headers.get('location')!);
    const back = await owner.browser.post('/v2/console/step-up', { _csrf: hidden(stepUp, '_csrf'), next: hidden(stepUp, 'next'), password: OWNER_PASSWORD });
    expect(back.headers.get('location')).to.equal(`/v2/console/widgets/${used.id}/delete`);
    expect(await text(back.headers.get('location')!)).to.include('name="confirm" value="yes"');
    const done = await post(`/v2/console/widgets/${used.id}/delete`, { confirm: 'yes' });
    expect(done.headers.get('location')).to.equal('/v2/console/widgets?done=deleted');
    expect(await stack.models.Widget.findByPk(used.id)).to.equal(null);
  });

  it('refuses a form without its CSRF token (nothing saved)', async () => {
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Csrf' });
    for (const [path, form] of [[`/v2/console/widgets/${widget.id}/settings`, { name: 'Hacked' }], ['/v2/console/widgets', { name: 'Hacked' }], [`/v2/console/widgets/${widget.id}/delete`, {}]] as const) {
      const res = await owner.browser.post(path, form);
      expect(res.status, path).to.equal(403);
    }
    expect((await row(widget.id)).name).to.equal('Csrf');
    expect(await stack.models.Widget.count({ where: { account_id: owner.account.accountId, name: 'Hacked' } })).to.equal(0);
  });

  it("another account's widget is a 404 on every route, and nothing of it changes", async () => {
    const other = await ownerOnPages(stack);
    const theirs = await insertWidget(stack.models, other.account.accountId, { name: 'Theirs' });
    const gets = ['', '/customize', '/share', '/settings', '/delete', '/directory-off'].map((tab) => `/v2/console/widgets/${theirs.id}${tab}`);
    for (const path of [...gets, `/v2/console/preview/widget/${theirs.id}`]) expect((await owner.browser.get(path)).status, path).to.equal(404);
    const posts = ['/copy', '/customize', '/share', '/settings', '/directory', '/delete'].map((tab) => `/v2/console/widgets/${theirs.id}${tab}`);
    for (const path of [...posts, `/v2/console/preview/widget/${theirs.id}`]) expect((await post(path, { name: 'Mine now', rule: 'on', confirm: 'yes' })).status, path).to.equal(404);
    const after = await row(theirs.id);
    expect([after.name, after.dir_sender_must_be_in_directory]).to.deep.equal(['Theirs', false]);
    expect(await stack.models.Widget.count({ where: { name: 'Copy - Theirs' } })).to.equal(0);
  });
});
