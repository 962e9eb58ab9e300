// People's text with no place to break (a long URL, a pasted string) at 375 px: the card page, the console's sends
// log and a send's page, and the widget wrap it instead of scrolling sideways; and the widget's message counter,
// which shows the one limit and follows the visitor's typing. Screenshots of each.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { PERSONAL_MESSAGE_MAX } from '../../services/sends/accept/personal-message.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot, signedInPage } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const PHONE = { width: 375, height: 800 };
const unbroken = (length: number) => `https://example.com/${'a1b2c3'.repeat(Math.ceil(length / 6))}`.slice(0, length);
/** Nothing scrolls sideways: the page is no wider than the phone. */
const pageWidth = (page: Page) => page.evaluate<number>('document.scrollingElement.scrollWidth');

describe('long words at 375 px: the card page, the console’s sends, the widget; the widget’s message counter', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardId: number;
  let sendId: string;
  let shareUrl: string;
  before(async function () {
    if (mysqlUrl) this.skip();
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id, { name: 'Long words' })).id;
    ({ sendId, shareUrl } = await shareCard(stack.url, account.liveKey, ecardId, { senderName: unbroken(200), recipientName: unbroken(200), personalMessage: unbroken(5000) }));
  });

  it('the card page wraps a 5,000-character unbroken message', async () => {
    const { page } = await newPage();
    await page.setViewportSize(PHONE);
    await page.goto(shareUrl);
    await page.getByRole('button', { name: 'Open your eCard' }).click();
    await page.locator('html.is-open').waitFor({ state: 'attached' });
    await page.locator('.message').waitFor();
    await screenshot(page, 'card-long-message-375');
    expect(await pageWidth(page)).to.be.at.most(375);
  });

  it('the console’s sends log and the send’s page wrap an unbroken sender’s and recipient’s name', async () => {
    const { page } = await signedInPage(stack, account.accountId);
    await page.setViewportSize(PHONE);
    for (const [path, name] of [['/v2/console/sends', 'sends-long-375'], [`/v2/console/sends/${sendId}`, 'send-detail-long-375']] as const) {
      await page.goto(`${stack.url}${path}`);
      expect(await pageWidth(page), path).to.be.at.most(375);
      // In a table a name wraps within its cell rather than stretching the table to its length.
      const widest = await page.evaluate<number>("Math.max(0, ...[...document.querySelectorAll('td')].map((c) => c.getBoundingClientRect().width))");
      expect(widest, `${path}: the widest cell`).to.be.at.most(375);
      await screenshot(page, name);
      await expectAccessible(page);
    }
  });

  describe('the widget', () => {
    let formUrl: string;
    before(async () => {
      const owner = await newAccount(stack.models);
      const { widget, ecards } = await insertPublicWidget(stack.models, owner.accountId);
      await widget.update({ name: unbroken(120) });
      await ecards[0]!.update({ name: unbroken(120) });
      formUrl = `${stack.url}/w/${widget.vanity_id}/e/${ecards[0]!.vanity_id}`;
    });

    it('wraps an unbroken widget and card name at 375 px', async () => {
      const { page } = await newPage();
      await page.setViewportSize(PHONE);
      await page.goto(formUrl);
      expect(await pageWidth(page)).to.be.at.most(375);
      await screenshot(page, 'widget-long-names-375');
    });

    it('counts the personal message’s characters against the one limit as the visitor types', async () => {
      const { page } = await newPage({ bypassCSP: false });
      await page.goto(formUrl);
      const box = page.locator('textarea[name="personalMessage"]');
      const counter = page.locator('[data-message-counter]');
      expect(await box.getAttribute('maxlength')).to.equal(String(PERSONAL_MESSAGE_MAX));
      await box.click();
      expect(await counter.innerText()).to.equal('0 / 20,000');
      await box.pressSequentially('Thank you!');
      expect(await counter.innerText()).to.equal('10 / 20,000');
      await box.press('Backspace');
      expect(await counter.innerText()).to.equal('9 / 20,000');
      expect(await box.getAttribute('aria-describedby')).to.equal('message-count');
      await screenshot(page, 'widget-message-counter');
    });

    it('without JavaScript the counter stays hidden and the box keeps its maxlength', async () => {
      const { context } = await newPage();
      const page = await (await context.browser()!.newContext({ javaScriptEnabled: false })).newPage();
      await page.goto(formUrl);
      expect(await page.locator('[data-message-counter]').isHidden()).to.equal(true);
      expect(await page.locator('textarea[name="personalMessage"]').getAttribute('maxlength')).to.equal(String(PERSONAL_MESSAGE_MAX));
      await page.context().close();
    });
  });
});
