// The loader (GET /embed/widget/{vanity_id}, /embed/ecard/{ecard_vanity_id}) and the frame-side bridge
// (GET /embed/bridge.js) over HTTP: served as small cacheable scripts with their widget's settings written in, and
// the one 404 for every widget or eCard a stranger may not embed. What they do in a browser is
// test/widgets/embed.browser.test.ts.
import { gzipSync } from 'node:zlib';
import { Script } from 'node:vm';
import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const FIVE_KB = 5 * 1024;

interface Fetched {
  status: number;
  headers: Headers;
  text: string;
}

async function get(stack: TestStack, path: string): Promise<Fetched> {
  const res = await fetch(`${stack.url}${path}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The settings the served loader was written with (the object literal its last line passes). */
function settingsOf(script: string): Record<string, string> {
  const match = /\}\)\((\{.*\})\);\s*$/.exec(script);
  expect(match, 'the loader ends by calling itself with its settings').to.not.equal(null);
  return JSON.parse(match![1]!) as Record<string, string>;
}

function expectScript(res: Fetched): void {
  expect(res.status, res.text).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/javascript; charset=utf-8');
  expect(res.headers.get('cache-control')).to.equal('public, max-age=300');
  expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
  expect(res.headers.get('set-cookie')).to.equal(null);
  expect(gzipSync(res.text).length, 'gzipped size').to.be.at.most(FIVE_KB);
  // It is JavaScript a browser can compile (a syntax error would throw here).
  expect(() => new Script(res.text)).to.not.throw();
}

async function expectNotFoundAlike(stack: TestStack, paths: string[]): Promise<void> {
  const answers = await Promise.all(paths.map((path) => get(stack, path)));
  for (const [i, res] of answers.entries()) {
    expect(res.status, paths[i]).to.equal(404);
    expect(res.headers.get('cache-control'), paths[i]).to.equal('no-store');
    expect(res.headers.get('content-type'), paths[i]).to.match(/^application\/json/);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    // The same answer for every reason: only the request id differs.
    expect({ ...body, request_id: null }, paths[i]).to.deep.equal({ success: false, data: null, code: 'not_found', messages: ['No public widget here'], request_id: null });
  }
}

describe('embed: the loader and the bridge over HTTP', function () {
  let stack: TestStack;
  let origin: string;

  before(async function () {
    stack = await testStack();
    origin = new URL(stack.config.publicBaseUrl).origin;
  });

  it("serves a public widget's loader with the service's origin, the widget's vanity, its anchor and its page written in", async function () {
    const account = await newAccount(stack.models);
    const { widget } = await insertPublicWidget(stack.models, account.accountId);
    const res = await get(stack, `/embed/widget/${widget.vanity_id}`);
    expectScript(res);
    expect(settingsOf(res.text)).to.deep.equal({
      origin,
      vanity: widget.vanity_id,
      anchor: `cardsvc_widget_${widget.vanity_id}`,
      src: `${stack.config.publicBaseUrl}/w/${widget.vanity_id}`,
      title: 'eCards',
    });
  });

  it("serves one visible eCard's loader: the eCard's form in its public widget, in the eCard's own anchor", async function () {
    const account = await newAccount(stack.models);
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { ecards: 2 });
    const ecard = ecards[1]!;
    const res = await get(stack, `/embed/ecard/${ecard.vanity_id}`);
    expectScript(res);
    expect(settingsOf(res.text)).to.deep.equal({
      origin,
      vanity: widget.vanity_id,
      anchor: `cardsvc_ecard_${ecard.vanity_id}`,
      src: `${stack.config.publicBaseUrl}/w/${widget.vanity_id}/e/${ecard.vanity_id}`,
      title: 'Card 2',
    });
  });

  it('serves the bridge, the same for every widget', async function () {
    const res = await get(stack, '/embed/bridge.js');
    expectScript(res);
    expect(res.text).to.include("'hello'");
  });

  it('answers the same 404 for an unknown, private or campaign widget and for a vanity in another case', async function () {
    const account = await newAccount(stack.models);
    const { widget } = await insertPublicWidget(stack.models, account.accountId);
    const hidden = await insertWidget(stack.models, account.accountId);
    const campaign = await insertWidget(stack.models, account.accountId, { is_campaign: true });
    await campaign.update({ public_share_enabled: true });
    const otherCase = widget.vanity_id === widget.vanity_id.toUpperCase() ? widget.vanity_id.toLowerCase() : widget.vanity_id.toUpperCase();
    expect(otherCase).to.not.equal(widget.vanity_id);
    await expectNotFoundAlike(stack, [
      '/embed/widget/nosuchwidget',
      `/embed/widget/${hidden.vanity_id}`,
      `/embed/widget/${campaign.vanity_id}`,
      `/embed/widget/${otherCase}`,
      `/embed/widget/${'x'.repeat(200)}`,
    ]);
  });

  it('answers the same 404 for an eCard that is unknown (or in another case), disabled, not yet published, expired, or in a private or campaign widget', async function () {
    const account = await newAccount(stack.models);
    const now = stack.services.now().getTime();
    const { widget, ecards } = await insertPublicWidget(stack.models, account.accountId, { ecards: 4 });
    const [disabled, future, expired, shown] = ecards;
    await disabled!.update({ disabled: true });
    await future!.update({ publish_on: new Date(now + 86_400_000) });
    await expired!.update({ expire_on: new Date(now - 1000) });
    const hidden = await insertWidget(stack.models, account.accountId);
    const inHidden = await insertEcard(stack.models, account.accountId, hidden.id);
    const campaign = await insertWidget(stack.models, account.accountId, { is_campaign: true });
    await campaign.update({ public_share_enabled: true });
    const inCampaign = await insertEcard(stack.models, account.accountId, campaign.id);
    const otherCase = shown!.vanity_id === shown!.vanity_id.toUpperCase() ? shown!.vanity_id.toLowerCase() : shown!.vanity_id.toUpperCase();
    await expectNotFoundAlike(stack, [
      '/embed/ecard/nosuchcard',
      `/embed/ecard/${otherCase}`,
      `/embed/ecard/${disabled!.vanity_id}`,
      `/embed/ecard/${future!.vanity_id}`,
      `/embed/ecard/${expired!.vanity_id}`,
      `/embed/ecard/${inHidden.vanity_id}`,
      `/embed/ecard/${inCampaign.vanity_id}`,
      `/embed/ecard/${'x'.repeat(200)}`,
    ]);
    // The one still shown in the same widget embeds; a widget turned private no longer does.
    expectScript(await get(stack, `/embed/ecard/${shown!.vanity_id}`));
    await widget.update({ public_share_enabled: false });
    await expectNotFoundAlike(stack, [`/embed/ecard/${shown!.vanity_id}`, `/embed/widget/${widget.vanity_id}`]);
  });
});
