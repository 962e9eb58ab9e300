import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { atPhoneWidth, expectAccessibleElsewhere, go, screenshot, signedInPage } from '../helpers/browser.ts';
import { keptEmail } from '../helpers/console.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

describe('console in a browser: the outbox of a live account under MAIL_TRANSPORT=sink', function () {
  this.timeout(90_000);
  let stack: TestStack;
  before(async function () {
    if (mysqlUrl) this.skip();
    // Its own task queues: the suite's worker (SMTP) must not run this stack's sends.
    const queue = `cardsvc-sink-browser-${process.pid}`;
    stack = await startStack({ MAIL_TRANSPORT: 'sink', TEMPORAL_TASK_QUEUE: queue, TEMPORAL_BULK_TASK_QUEUE: `${queue}-bulk` });
  });
  // Stopped with this file: its background passes (the mail queue's among them) would otherwise send later files'
  // queued mail to its sink instead of the suite's SMTP server (test/mail/queue.test.ts failed so in CI).
  after(async () => {
    await stack?.stop();
  });

  it('lists a real live send’s email and shows it with its own inline styles, under the pages’ real CSP', async () => {
    const account = await newAccount(stack.models, 'pro');
    const recipient = `rita-${process.pid}-${Date.now()}@example.com`;
    const kept = await keptEmail(stack, account, recipient, 'live');
    // The pages' own CSP is enforced: an email in srcdoc would inherit the console's and lose its inline styles.
    const { context, page } = await signedInPage(stack, account.accountId, undefined, { bypassCSP: false });

    await go(page, () => page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Outbox', exact: true }).click(), /\/v2\/console\/outbox$/);
    const main = await page.locator('main').innerText();
    expect(main).to.include('Live emails are not sent: MAIL_TRANSPORT is set to sink').and.include(recipient);
    await screenshot(page, 'outbox-live-sink');
    await expectAccessibleElsewhere(context, page.url());
    await atPhoneWidth(page, 'outbox-live-sink');

    await go(page, () => page.getByRole('link', { name: kept.subject }).click(), /\/v2\/console\/outbox\/\d+$/);
    const iframe = page.locator('iframe.email-preview');
    expect(await iframe.getAttribute('sandbox')).to.equal('');
    expect(await page.frameLocator('iframe.email-preview').locator('body').innerText()).to.include('Rita');
    // The body's inline background (MJML's mj-body background-color) is what the frame paints: the colour its style
    // attribute names, read back through a probe element (as rgb()), equals the body's computed background.
    const frame = page.frame({ url: /\/outbox\/\d+\/html$/ });
    expect(frame, 'the email’s frame').to.not.equal(null);
    const { inline, computed, probe } = await frame!.evaluate<{ inline: string; computed: string; probe: string }>(`(() => {
      const parsed = document.createElement('div');
      parsed.style.cssText = document.body.getAttribute('style') || '';
      const inline = parsed.style.backgroundColor;
      const probe = document.createElement('div');
      probe.style.backgroundColor = inline;
      document.body.append(probe);
      const result = { inline, computed: getComputedStyle(document.body).backgroundColor, probe: getComputedStyle(probe).backgroundColor };
      probe.remove();
      return result;
    })()`);
    expect(inline, 'the email’s body has an inline background').to.not.equal('');
    expect(computed).to.not.equal('rgba(0, 0, 0, 0)');
    expect(computed).to.equal(probe);
    await screenshot(page, 'outbox-live-sink-email');
    await expectAccessibleElsewhere(context, page.url());
    // At 375 px the frame sits below the first screen: scrolled to, as a reader would, it paints the email.
    await page.setViewportSize({ width: 375, height: 800 });
    await iframe.scrollIntoViewIfNeeded();
    expect(await page.frameLocator('iframe.email-preview').locator('body').innerText()).to.include('Rita');
    await atPhoneWidth(page, 'outbox-live-sink-email');
  });
});
