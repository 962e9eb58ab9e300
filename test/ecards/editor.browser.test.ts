// The eCard editor in Chromium, under the page's own CSP (Trix's styles by nonce): a new eCard with a dropped cover,
// a Trix body with a merge tag from the picker, envelope colours and confetti; the HTML source view and the warning
// for a body Trix would lose formatting of; 375 px, keyboard, axe-core and screenshots.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, expectSuccess, newAccount, newKey } from '../helpers/api.ts';
import { atPhoneWidth, expectAccessible, expectAccessibleElsewhere, screenshot, signedInPage, fitsWidth } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually, EVENTUALLY_MS } from '../helpers/eventually.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

/** True when the page fits the window's width (nothing scrolls sideways). */

/** The id of the focused element (the tests compile without the DOM library: a string expression). */
const focusedId = (page: Page) => page.evaluate<string>("document.activeElement?.id || document.activeElement?.tagName.toLowerCase() || ''");

/** Drops a PNG made in the page (a red 120×80 canvas) on the cover's drop zone, as a file dragged from the desktop. */
const dropCover = (page: Page) =>
  page.evaluate(`(async () => {
    const canvas = new OffscreenCanvas(120, 80);
    const context = canvas.getContext('2d');
    context.fillStyle = '#c0392b';
    context.fillRect(0, 0, 120, 80);
    const file = new File([await canvas.convertToBlob({ type: 'image/png' })], 'cover.png', { type: 'image/png' });
    const data = new DataTransfer();
    data.items.add(file);
    const zone = document.getElementById('drop-zone');
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  })()`);

/** The HTML a preview frame shows now (its document, once it has loaded). */
const frameHtml = (page: Page, name: string) => page.frame({ name })?.content() ?? Promise.resolve('');

/** Waits until the named preview frame's document holds `text`. */
const frameShows = (page: Page, name: string, text: string) => eventually(() => frameHtml(page, name).catch(() => ''), (html) => html.includes(text), 20_000, 250);

describe('console in a browser: the eCard editor', function () {
  this.timeout(120_000);
  let stack: TestStack;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
  });

  it('makes an eCard with a dropped cover, a Trix body with a merge tag, colours and confetti, under the page CSP', async () => {
    const account = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Birthdays' });
    const { key } = await newKey(stack.models, account.accountId, { ecards: 'view' });
    const { context, page } = await signedInPage(stack, account.accountId, undefined, { bypassCSP: false });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
    const url = `${stack.url}/v2/console/ecards/new?widgetid=${widget.id}`;
    await page.goto(url);
    // Trix is up (its toolbar and editor in place of the textarea), its own styles allowed by the nonce.
    await page.locator('trix-toolbar').waitFor();
    expect(await page.locator('trix-editor').isVisible()).to.equal(true);
    expect(await page.locator('#details-source').isVisible()).to.equal(false);
    expect(await page.evaluate("getComputedStyle(document.querySelector('trix-editor')).display")).to.equal('block');

    await page.getByLabel('Name', { exact: true }).fill('Happy birthday');
    await page.getByLabel('Email subject').fill('For ');
    await page.getByLabel('Header').fill('Cheers from the team');
    // The picker inserts into the field focused last: the subject…
    await page.getByLabel('Email subject').focus();
    await page.getByLabel('Merge tag').selectOption('recipient_name');
    await page.getByRole('button', { name: 'Insert tag' }).click();
    expect(await page.getByLabel('Email subject').inputValue()).to.equal('For {{recipient_name}}');
    // …and into Trix at its cursor.
    await page.locator('trix-editor').click();
    await page.keyboard.type('Dear ');
    await page.getByLabel('Merge tag').selectOption('sender_name');
    expect(await page.locator('#merge-where').innerText()).to.equal('into the body');
    await page.getByRole('button', { name: 'Insert tag' }).click();
    await page.keyboard.type(', happy birthday!');
    // Trix writes its HTML into the field as it renders: a moment after the last key.
    const body = '<div>Dear {{sender_name}}, happy birthday!</div>';
    expect(await eventually(() => page.locator('#details').inputValue(), (value) => value === body, EVENTUALLY_MS, 50)).to.equal(body);

    await dropCover(page);
    await page.locator('#cover-canvas').waitFor();
    expect(await page.locator('#cover-status').innerText()).to.include('cover.png');
    expect(await page.evaluate("document.getElementById('ecardimg').files.length")).to.equal(1);

    await page.getByLabel('Confetti when it opens').check();
    await page.getByLabel('Envelope colour picker').fill('#2e86de');
    expect(await page.getByLabel('Envelope', { exact: true }).inputValue()).to.equal('#2e86de');
    await page.getByLabel('Card', { exact: true }).fill('#fff8e7');
    await page.getByRole('button', { name: "Use the theme's Card colour" }).click();
    expect(await page.getByLabel('Card', { exact: true }).inputValue()).to.equal('');
    await page.getByLabel('Accent', { exact: true }).fill('#c0392b');
    await page.getByRole('button', { name: 'Tomorrow 9:00 UTC' }).click();
    expect(await page.getByLabel('Predefined send time (UTC)').inputValue()).to.match(/^\d{4}-\d{2}-\d{2}T09:00$/);
    await screenshot(page, 'ecard-editor-new');

    await Promise.all([page.waitForURL(/\/v2\/console\/ecards\/\d+\?done=saved$/), page.getByRole('button', { name: 'Create the eCard' }).click()]);
    expect(await page.locator('.notice').innerText()).to.equal('The eCard is saved.');
    const id = Number(/ecards\/(\d+)/.exec(page.url())?.[1]);
    const saved = expectSuccess(await call(stack.url, 'GET', `/v2/api/ecard/findOne/id/${id}`, { key })) as Record<string, unknown>;
    expect(saved).to.include({ name: 'Happy birthday', emailSubject: 'For {{recipient_name}}', header: 'Cheers from the team', envelope_confetti: true, widgetid: widget.id });
    expect(saved.details).to.equal('<div>Dear {{sender_name}}, happy birthday!</div>');
    expect(JSON.parse(String(saved.envelope_color_settings))).to.deep.equal({ envelope: '#2e86de', accent: '#c0392b' });
    expect(String(saved.self_hosted_url)).to.include('/media/');
    // The stored cover shows on the page (same origin, allowed by the CSP).
    expect(await page.evaluate("(() => { const img = document.getElementById('cover-current'); return img.complete && img.naturalWidth > 0; })()")).to.equal(true);
    await page.locator('trix-toolbar').waitFor();
    expect(await page.locator('.warning').isVisible()).to.equal(false);
    await screenshot(page, 'ecard-editor-saved');
    expect(violations).to.deep.equal([]);
    await expectAccessibleElsewhere(context, page.url());

    // The keyboard reaches the body editor and the picker, in the page's order.
    await page.getByLabel('Header').focus();
    const reached: string[] = [];
    for (let i = 0; i < 30 && !reached.includes('merge-insert'); i++) {
      await page.keyboard.press('Tab');
      reached.push(await focusedId(page));
    }
    expect(reached).to.include('trix-editor');
    expect(reached.indexOf('merge-tag')).to.be.greaterThan(reached.indexOf('trix-editor'));
    expect(reached).to.include('merge-insert');

    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'ecard-editor-375');
    expect(await fitsWidth(page)).to.equal(true);
  });

  it('opens a body Trix would lose formatting of as HTML source, with a warning, and saves it unchanged', async () => {
    const { account, widget, ecard } = await accountWithWidget(stack, { ecard: { name: 'Made elsewhere' } });
    const table = '<table><tbody><tr><td>Gift</td><td>Card</td></tr></tbody></table><p>Dear {{recipient_first_name}}</p>';
    await ecard.update({ details: table });
    const plain = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Plain' });
    const { page } = await signedInPage(stack, account.accountId, undefined, { bypassCSP: false });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));

    // A body Trix keeps (a paragraph, as Trix writes it a div): no warning, the visual editor.
    await page.goto(`${stack.url}/v2/console/ecards/${plain.id}`);
    await page.locator('trix-toolbar').waitFor();
    expect(await page.locator('.warning').isVisible()).to.equal(false);
    expect(await page.locator('trix-editor').innerText()).to.include('Dear {{recipient_first_name}}');

    await page.goto(`${stack.url}/v2/console/ecards/${ecard.id}`);
    const warning = page.getByRole('alert');
    await warning.waitFor();
    expect(await warning.innerText()).to.include('<table>').and.include('saving keeps it');
    expect(await page.locator('#details-source').isVisible()).to.equal(true);
    expect(await page.locator('trix-editor').isVisible()).to.equal(false);
    expect(await page.locator('#details-source').inputValue()).to.include('<table>');
    await screenshot(page, 'ecard-editor-formatting-warning');
    await Promise.all([page.waitForURL(/done=saved$/), page.getByRole('button', { name: 'Save the eCard' }).click()]);
    await ecard.reload();
    expect(ecard.details).to.include('<table>').and.include('<td>Gift</td>');

    // The source view both ways: an edit in the source shows in Trix; Trix's HTML shows in the source.
    await page.goto(`${stack.url}/v2/console/ecards/${plain.id}`);
    await page.locator('trix-toolbar').waitFor();
    await page.getByRole('button', { name: 'Edit the HTML source' }).click();
    expect(await page.locator('#details-source').inputValue()).to.equal('<div>Dear {{recipient_first_name}}</div>');
    await page.locator('#details-source').fill('<div>Hello <strong>there</strong></div>');
    await page.getByRole('button', { name: 'Back to the editor' }).click();
    expect(await page.locator('trix-editor strong').innerText()).to.equal('there');
    await Promise.all([page.waitForURL(/done=saved$/), page.getByRole('button', { name: 'Save the eCard' }).click()]);
    await plain.reload();
    expect(plain.details).to.equal('<div>Hello <strong>there</strong></div>');
    expect(errors).to.deep.equal([]);
  });

  it('shows the card and email previews before and after saving, and sends a test to the sandbox outbox', async () => {
    const account = await newAccount(stack.models);
    // The console on the sandbox: its eCards and their test emails are the sandbox's.
    const widget = await insertWidget(stack.models, account.sandboxAccountId, { name: 'Sandbox widget' });
    const { page } = await signedInPage(stack, account.accountId, undefined, { bypassCSP: false });
    await Promise.all([page.waitForURL(/\/v2\/console\/$/), page.getByRole('button', { name: 'Switch to sandbox' }).click()]);
    await page.goto(`${stack.url}/v2/console/ecards/new?widgetid=${widget.id}`);
    await page.locator('trix-toolbar').waitFor();

    // Without saving: typing posts the form to both frames a moment later.
    await page.getByLabel('Name', { exact: true }).fill('Previewed');
    await page.getByLabel('Email subject').fill('Preview test for {{recipient_name}}');
    await page.getByLabel('Header').fill('Sealed with a smile');
    await page.getByLabel('Envelope colour picker').fill('#2e86de');
    await frameShows(page, 'preview-card', 'Sealed with a smile');
    await frameShows(page, 'preview-card', '#2e86de');
    await frameShows(page, 'preview-email', 'Sealed with a smile');
    // The Preview buttons (what works without JavaScript) fill the frames too.
    await page.getByLabel('Header').fill('Button preview');
    await page.getByRole('button', { name: 'Preview the email' }).click();
    await frameShows(page, 'preview-email', 'Button preview');
    await screenshot(page, 'ecard-editor-unsaved-previews');

    await Promise.all([page.waitForURL(/\/v2\/console\/ecards\/\d+\?done=saved$/), page.getByRole('button', { name: 'Create the eCard' }).click()]);
    // Saved: the frames load the stored design; the switch opens the card.
    await frameShows(page, 'preview-card', 'Button preview');
    await frameShows(page, 'preview-email', 'Button preview');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await frameShows(page, 'preview-card', 'Button preview');
    await screenshot(page, 'ecard-editor-saved-previews');

    // Send me a test: the owner's address by default; on the sandbox it lands in the outbox.
    expect(await page.getByLabel('Send to').getAttribute('placeholder')).to.match(/@example\.com$/);
    await Promise.all([page.waitForURL(/done=test-sent$/), page.getByRole('button', { name: 'Send me a test' }).click()]);
    expect(await page.locator('.notice').innerText()).to.include('test email');
    await page.goto(`${stack.url}/v2/console/outbox`);
    const text = await eventually(
      async () => {
        await page.reload();
        return page.locator('main').innerText();
      },
      (t) => t.includes('Preview test for'),
      20_000,
      250,
    );
    expect(text).to.include('Preview test for');

  });

  it('refuses an oversized cover before any upload, in MB; a refused save shows the message at its field and keeps values and cover', async () => {
    const account = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, account.accountId, { name: 'Birthdays' });
    const { page } = await signedInPage(stack, account.accountId);
    // Saves only: the live previews post the form's text (never its file) as it changes.
    const saves: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/v2/console/ecards')) saves.push(request.url());
    });
    await page.goto(`${stack.url}/v2/console/ecards/new?widgetid=${widget.id}`);
    await page.locator('trix-toolbar').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Typed name');
    await page.getByLabel('Header').fill('Typed header');

    // 5 MB and one byte: refused in the page, the file input emptied, nothing sent.
    await page.locator('#ecardimg').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
    const tooBig = page.locator('#ecardimg-error');
    expect(await tooBig.innerText()).to.equal('Cover image is larger than 5 MB (big.png is 5.0 MB): choose a smaller one.');
    expect(await page.locator('#ecardimg').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.locator('#ecardimg').getAttribute('aria-describedby')).to.equal('cover-status ecardimg-error');
    expect(await page.locator('#ecardimg').evaluate((input) => (input as unknown as { files: { length: number } }).files.length)).to.equal(0);
    expect(saves).to.deep.equal([]);
    await screenshot(page, 'ecard-editor-cover-too-big');
    await expectAccessible(page);

    // A good cover clears the message; an expiry before the publishing is refused by the server, at its field.
    await dropCover(page);
    await page.locator('#cover-canvas').waitFor();
    expect(await tooBig.count()).to.equal(0);
    await page.getByLabel('Publish on (UTC)').fill('2030-01-02T09:00');
    await page.getByLabel('Expire on (UTC)').fill('2030-01-01T09:00');
    await page.getByRole('button', { name: 'Create the eCard' }).click();
    const expiry = page.locator('#expireOn-error');
    await expiry.waitFor();
    expect(await expiry.innerText()).to.equal('Expire on: must be later than “Publish on” (2030-01-02T09:00:00.000Z)');
    const expireOn = page.getByLabel('Expire on (UTC)');
    expect(await expireOn.getAttribute('aria-invalid')).to.equal('true');
    expect(await expireOn.getAttribute('aria-describedby')).to.equal('expireOn-error');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('Typed name');
    expect(await page.getByLabel('Header').inputValue()).to.equal('Typed header');
    expect(await page.getByLabel('Publish on (UTC)').inputValue()).to.equal('2030-01-02T09:00');
    expect(await expireOn.inputValue()).to.equal('2030-01-01T09:00');
    // The chosen cover is kept: shown, and in the form for the next save.
    expect(await page.locator('#cover-status').innerText()).to.include('Your chosen cover is kept');
    await page.waitForFunction("document.getElementById('cover-current')?.naturalWidth === 120");
    const kept = await page.locator('#self_hosted_url').inputValue();
    expect(kept).to.match(/\/media\/.+\.png$/);
    await screenshot(page, 'ecard-editor-refused-field');
    await expectAccessible(page);
    await atPhoneWidth(page, 'ecard-editor-refused-field');

    await expireOn.fill('2030-02-01T09:00');
    await Promise.all([page.waitForURL(/\/v2\/console\/ecards\/\d+\?done=saved$/), page.getByRole('button', { name: 'Create the eCard' }).click()]);
    const id = Number(/\/ecards\/(\d+)/.exec(page.url())?.[1]);
    const saved = await stack.models.Ecard.findByPk(id, { rejectOnEmpty: true });
    expect([saved.name, saved.self_hosted_url]).to.deep.equal(['Typed name', kept]);
    expect(saved.thumb_file).to.be.a('string');
  });
});
