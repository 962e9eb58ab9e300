// The console's accent stylesheet over HTTP: only for a session, the session's own account's default brand, never cached
// across people; and the colour math that keeps text on and in the accent readable.
import { expect } from 'chai';
import { contrastRatio } from '../../lib/colors.ts';
import { resolveBrand } from '../../services/brands/brands.ts';
import { accentStylesheet } from '../../services/console/theme.ts';
import { call, expectSuccess } from '../helpers/api.ts';
import { ownerOnPages, pageClient } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console theme.css: the default brand\'s accent', function () {
  this.timeout(30_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  /** Sets the default brand's accent through the key API, as an owner's integration would. */
  async function setAccent(accountId: number, key: string, accent: string | null): Promise<void> {
    const brand = await resolveBrand(stack, accountId, null);
    expectSuccess(await call(stack.url, 'POST', '/v2/api/brand/save', { key, body: { brand: { id: brand!.id, accent_color: accent } } }));
  }

  it('needs a session (401 without one) and is private, revalidated each time', async () => {
    const anonymous = await pageClient(stack.url).get('/v2/console/static/theme.css');
    expect(anonymous.status).to.equal(401);
    expect(await anonymous.text()).to.not.include('--accent');
    const { browser } = await ownerOnPages(stack);
    const res = await browser.get('/v2/console/static/theme.css');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/css; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('private, no-cache');
    // No accent yet: nothing overrides the console's own tokens.
    expect(await res.text()).to.not.include('--accent');
  });

  it('each session reads its own account\'s default brand', async () => {
    const green = await ownerOnPages(stack);
    const red = await ownerOnPages(stack);
    await setAccent(green.account.accountId, green.account.liveKey, '#0b7a3e');
    await setAccent(red.account.accountId, red.account.liveKey, '#c81e1e');
    const greenCss = await (await green.browser.get('/v2/console/static/theme.css')).text();
    const redCss = await (await red.browser.get('/v2/console/static/theme.css')).text();
    expect(greenCss).to.include('--accent:#0b7a3e;').and.not.include('#c81e1e');
    expect(redCss).to.include('--accent:#c81e1e;').and.not.include('#0b7a3e');
    // The home page links it only for a signed-in owner.
    expect(await (await green.browser.get('/v2/console/')).text()).to.include('<link rel="stylesheet" href="/v2/console/static/theme.css">');
    expect(await (await pageClient(stack.url).get('/v2/console/sign-in')).text()).to.not.include('theme.css');
  });

  it('keeps 4.5:1: dark text on a light accent, white on a dark one, ink darkened or lightened per scheme', () => {
    const vars = (css: string, part: 0 | 1) => Object.fromEntries([...css.split('\n')[part]!.matchAll(/--([a-z-]+):(#[0-9a-f]{6})/g)].map((m) => [m[1]!, m[2]!]));
    const light = accentStylesheet('#ffe066');
    const [day, night] = [vars(light, 0), vars(light, 1)];
    expect(day['accent-text']).to.equal('#111111');
    expect(contrastRatio(day['accent-text']!, day.accent!)).to.be.at.least(4.5);
    expect(contrastRatio(day['accent-ink']!, '#ffffff')).to.be.at.least(4.5);
    expect(contrastRatio(day['accent-ink']!, '#eef1f5')).to.be.at.least(4.5);
    expect(night['accent-ink']).to.equal('#ffe066');
    expect(contrastRatio(night['accent-ink']!, '#222831')).to.be.at.least(4.5);
    const dark = vars(accentStylesheet('navy'), 1);
    expect(dark['accent-text']).to.equal('#ffffff');
    expect(contrastRatio(dark['accent-ink']!, '#171b21')).to.be.at.least(4.5);
    expect(accentStylesheet('not a colour')).to.not.include('--accent');
    expect(accentStylesheet(null)).to.not.include('--accent');
  });
});
