// The branded email as a mail client draws it: the HTML received at the test SMTP server rendered by Chromium at
// 600, 375 and 320 px wide, light and dark, with screenshots in test-artifacts/ and axe-core's check. The brand's
// logo and the card's cover are served to the page by the test (no network).
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { contrastRatio } from '../../lib/colors.ts';
import { apiClient, call, newAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { mysqlUrl } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack } from '../helpers/stack.ts';

const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="72" viewBox="0 0 320 72">
  <circle cx="36" cy="36" r="28" fill="#00aa77"/><path d="M36 14c10 10 10 30 0 44c-10-14-10-34 0-44z" fill="#fff"/>
  <text x="76" y="47" font-family="Georgia, serif" font-size="32" font-weight="700" fill="#1f2328">Maple Goods</text></svg>`;
const COVER = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="760" viewBox="0 0 1200 760">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffe29a"/><stop offset="1" stop-color="#ff8a6b"/></linearGradient></defs>
  <rect width="1200" height="760" fill="url(#g)"/>
  <g fill="#fff" opacity="0.55"><circle cx="140" cy="120" r="46"/><circle cx="1050" cy="150" r="70"/><circle cx="980" cy="640" r="38"/><circle cx="210" cy="620" r="60"/></g>
  <g fill="#00aa77" opacity="0.8"><rect x="300" y="110" width="26" height="26" transform="rotate(20 313 123)"/><rect x="860" y="560" width="22" height="22" transform="rotate(-25 871 571)"/><rect x="760" y="120" width="18" height="18"/></g>
  <text x="600" y="410" text-anchor="middle" font-family="Georgia, serif" font-size="128" font-style="italic" fill="#ffffff">Thank you!</text></svg>`;

describe('the email in a browser: 600 and 375 px, light and dark', function () {
  this.timeout(90_000);
  let html: string;
  before(async function () {
    // Browser checks run once, on SQLite (the MariaDB run reads the same emails in test/sends/email.test.ts).
    if (mysqlUrl) this.skip();
    const stack = await testStack();
    const smtp = await testSmtpServer();
    const account = await newAccount(stack.models, 'pro');
    const { ok } = apiClient(stack, account.liveKey);
    const brandId = (await ok('POST', '/brand/save', {
      brand: {
        name: 'Maple Goods', logo_url: 'https://cdn.example.com/maple-logo.svg', website: 'https://maple.example', address: '12 Orchard Lane, Springfield',
        primary_color: '#0a7', accent_color: '#d97706', footer_text: 'Cards from the Maple team.', social: { instagram: 'https://instagram.com/maple', linkedin: 'https://linkedin.com/company/maple' },
      },
    })).id as number;
    const ecard = await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id, { self_hosted_url: 'https://cdn.example.com/thank-you.svg' });
    await ecard.update({ header: 'Thank you for this year', details: '<p>Dear {{recipient_first_name}}, your help made our launch a success. Enjoy a treat on us!</p>' });
    await ok('POST', '/ecard/save', { myEcard: { id: ecard.id, ecardbrandid: brandId } });
    await seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme Coffee', 2500, 1);
    const to = `rita-${process.pid}@browser.example.com`;
    await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body: {
      ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam Sender', recipientName: 'Rita Receiver', recipientEmail: to,
      personalMessage: '<p>Rita, thank you for staying late all those Thursdays. — Sam</p>', giftCard: { product_id: 'manual:Acme Coffee:25', amount: 25 },
    } });
    html = (await eventually(async () => smtp.to(to), (m) => m.length > 0, 30_000))[0]!.html;
    expect(html).to.include('Maple Goods');
  });

  async function show(width: number, colorScheme: 'light' | 'dark'): Promise<Page> {
    const { page } = await newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme });
    // The only requests the email makes are the logo and the cover: anything else fails the test.
    const elsewhere: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === 'https://cdn.example.com/maple-logo.svg') return route.fulfill({ contentType: 'image/svg+xml', body: LOGO });
      if (url === 'https://cdn.example.com/thank-you.svg') return route.fulfill({ contentType: 'image/svg+xml', body: COVER });
      elsewhere.push(url);
      return route.abort();
    });
    await page.setContent(html, { waitUntil: 'load' });
    expect(elsewhere).to.deep.equal([]);
    const drawn = await page.locator('img').evaluateAll((imgs) => (imgs as unknown as Array<{ complete: boolean; naturalWidth: number }>).every((img) => img.complete && img.naturalWidth > 0));
    expect(drawn, 'images drawn').to.equal(true);
    return page;
  }

  // The tests compile without the DOM library: what is read in the page is typed where it is read.
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
  const style = (page: Page, selector: string) =>
    page.locator(selector).first().evaluate((el) => {
      const { backgroundColor, color } = (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string; color: string } }).getComputedStyle(el);
      return { backgroundColor, color };
    });
  const box = (page: Page, text: string) => page.getByText(text, { exact: true }).boundingBox();

  it('600 px: the card panel at 600 px, the button and the gift block visible, no horizontal scroll; axe-core', async () => {
    const page = await show(600, 'light');
    await screenshot(page, 'email-600');
    expect(await overflow(page)).to.equal(0);
    const panel = await page.locator('.dm-surface').boundingBox();
    expect(panel!.width).to.equal(600);
    expect(await page.getByRole('link', { name: 'Open your eCard' }).isVisible()).to.equal(true);
    expect(await page.getByRole('link', { name: 'Claim your gift card' }).isVisible()).to.equal(true);
    expect(await page.getByRole('img', { name: 'Thank you for this year' }).isVisible()).to.equal(true);
    await expectAccessible(page);
  });

  for (const width of [375, 320]) {
    it(`${width} px: fluid, nothing wider than the screen, the cover scaled down, the button still whole`, async () => {
      const page = await show(width, 'light');
      await screenshot(page, `email-${width}`);
      expect(await overflow(page)).to.equal(0);
      const cover = await page.getByRole('img', { name: 'Thank you for this year' }).boundingBox();
      expect(cover!.width).to.be.at.most(width - 32).and.at.least(width - 80);
      const button = await box(page, 'Open your eCard');
      expect(button!.x).to.be.at.least(0);
      expect(button!.x + button!.width).to.be.at.most(width);
      if (width === 375) await expectAccessible(page);
    });
  }

  it('dark: the panel turns dark and its text light, still readable', async () => {
    const page = await show(600, 'dark');
    await screenshot(page, 'email-600-dark');
    const colours = { panel: (await style(page, '.dm-surface')).backgroundColor, text: (await style(page, '.card-text div')).color };
    const hex = (rgb: string) => `#${(rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
    expect(contrastRatio(hex(colours.panel), '#000000'), 'a dark panel').to.be.below(2);
    expect(contrastRatio(hex(colours.text), hex(colours.panel)), `${colours.text} on ${colours.panel}`).to.be.at.least(7);
    await expectAccessible(page);
  });
});
