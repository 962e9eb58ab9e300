// The widget page's eCards tab over HTTP, without JavaScript: the grid in display order, the order form, hide and
// show, copy, prices, delete (an eCard a send used: a confirmation naming the impact, then confirm=yes; the sent
// card still opens), CSRF, and another account's widget or eCard ids → 404.
import { expect } from 'chai';
import { call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Pages = Awaited<ReturnType<typeof ownerOnPages>>;

describe('console: a widget\'s eCards tab', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  /** An owner on the pages with a widget of three eCards (display order: Third, First, Second by row order). */
  async function setup(): Promise<Pages & { widget: { id: number }; ids: number[] }> {
    const owner = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, owner.account.accountId, { name: 'Thank-you cards' });
    const first = await insertEcard(stack.models, owner.account.accountId, widget.id, { name: 'First', display_order: 1 });
    const second = await insertEcard(stack.models, owner.account.accountId, widget.id, { name: 'Second', display_order: 2 });
    const third = await insertEcard(stack.models, owner.account.accountId, widget.id, { name: 'Third', display_order: 0 });
    return { ...owner, widget, ids: [third.id, first.id, second.id] };
  }

  const grid = (o: Pages, widgetId: number) => o.browser.get(`/v2/console/widgets/${widgetId}/ecards`);
  /** The eCard names in the order the grid shows them. */
  const namesIn = (html: string) => [...html.matchAll(/<h2 class="wcard-name">([^<]*)<\/h2>/g)].map((m) => m[1]);
  /** The key API's order of the widget's eCards. */
  async function apiOrder(account: TestAccount, widgetId: number): Promise<string[]> {
    const res = await call(stack.url, 'GET', `/v2/api/ecard/search?widgetid=${widgetId}&sortBy=displayorder`, { key: account.liveKey });
    return (expectSuccess(res) as Array<{ name: string }>).map((e) => e.name);
  }
  const expectDone = (res: Response, widgetId: number, done: string) => {
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/v2/console/widgets/${widgetId}/ecards?done=${done}`);
  };

  it('lists the eCards in display order with the tabs, a New eCard link and a notice; an empty widget says so', async () => {
    const o = await setup();
    const res = await grid(o, o.widget.id);
    expect(res.status).to.equal(200);
    const html = await res.text();
    expect(html).to.include('<title>Thank-you cards · Card service console</title>');
    expect(html).to.match(/href="\/v2\/console\/widgets\/\d+\/ecards" aria-current="page">eCards</);
    expect(html).to.include(`href="/v2/console/ecards/new?widgetid=${o.widget.id}"`);
    expect(html).to.include(`href="/v2/console/ecards/${o.ids[0]}"`);
    expect(namesIn(html)).to.deep.equal(['Third', 'First', 'Second']);
    expect(html).to.include(`name="pos_${o.ids[0]}" type="number" min="1" max="3" value="1"`);
    expect(html).to.include('/v2/console/assets/widget-grid.js').and.include('/v2/console/assets/widget-grid.css');
    const empty = await insertWidget(stack.models, o.account.accountId, { name: 'Empty' });
    const none = await (await grid(o, empty.id)).text();
    expect(none).to.include('No eCards in this widget yet.').and.not.include('Save order');
    const campaign = await insertWidget(stack.models, o.account.accountId, { name: 'Campaign', is_campaign: true });
    const locked = await (await grid(o, campaign.id)).text();
    expect(locked).to.include('belongs to a campaign').and.not.include('New eCard');
  });

  it('the order form (no JavaScript) reorders by the positions given; the script\'s order field too', async () => {
    const o = await setup();
    const [third, first, second] = o.ids as [number, number, number];
    const res = await o.browser.post(`/v2/console/widgets/${o.widget.id}/ecards/order`, { _csrf: o.csrf, [`pos_${third}`]: '3', [`pos_${first}`]: '1', [`pos_${second}`]: '2' });
    expectDone(res, o.widget.id, 'order-saved');
    expect(await apiOrder(o.account, o.widget.id)).to.deep.equal(['First', 'Second', 'Third']);
    const page = await (await o.browser.get(res.headers.get('location')!)).text();
    expect(page).to.include('Order saved.');
    expect(namesIn(page)).to.deep.equal(['First', 'Second', 'Third']);
    expectDone(await o.browser.post(`/v2/console/widgets/${o.widget.id}/ecards/order`, { _csrf: o.csrf, order: `${second},${third},${first}` }), o.widget.id, 'order-saved');
    expect(await apiOrder(o.account, o.widget.id)).to.deep.equal(['Second', 'Third', 'First']);
    // Only the last card given position 1: it becomes the first, the others keep their order after it.
    const form = { _csrf: o.csrf, [`pos_${second}`]: '1', [`pos_${third}`]: '2', [`pos_${first}`]: '1' };
    expectDone(await o.browser.post(`/v2/console/widgets/${o.widget.id}/ecards/order`, form), o.widget.id, 'order-saved');
    expect(await apiOrder(o.account, o.widget.id)).to.deep.equal(['First', 'Second', 'Third']);
    const bad = await o.browser.post(`/v2/console/widgets/${o.widget.id}/ecards/order`, { _csrf: o.csrf, [`pos_${third}`]: 'soon' });
    expect(bad.status).to.equal(400);
    expect(await bad.text()).to.include('expected a whole number');
    expect(await apiOrder(o.account, o.widget.id)).to.deep.equal(['First', 'Second', 'Third']);
  });

  it('hides and shows an eCard (a Hidden badge; the key API reads disabled)', async () => {
    const o = await setup();
    const id = o.ids[1]!;
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${id}/visibility`, { _csrf: o.csrf, hidden: 'yes' }), o.widget.id, 'hidden');
    expect((await stack.models.Ecard.findByPk(id))!.disabled).to.equal(true);
    const html = await (await grid(o, o.widget.id)).text();
    expect(html).to.match(/<h2 class="wcard-name">First<\/h2>\s*<p class="wcard-badges">\s*<span class="badge wcard-hidden">Hidden<\/span>/);
    expect(html.match(/>Hidden</g)).to.have.length(1);
    expect(html).to.include('Show<span class="sr-only"> First</span>');
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${id}/visibility`, { _csrf: o.csrf, hidden: 'no' }), o.widget.id, 'shown');
    expect((await stack.models.Ecard.findByPk(id))!.disabled).to.equal(false);
    expect((await o.browser.post(`/v2/console/widgets/ecards/${id}/visibility`, { _csrf: o.csrf, hidden: 'maybe' })).status).to.equal(400);
  });

  it('copies an eCard into its own widget and into another of the account\'s widgets', async () => {
    const o = await setup();
    const other = await insertWidget(stack.models, o.account.accountId, { name: 'Other widget' });
    expect(await (await grid(o, o.widget.id)).text()).to.include(`<option value="${other.id}">Other widget</option>`);
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${o.ids[0]}/copy`, { _csrf: o.csrf, widgetid: '' }), o.widget.id, 'copied');
    expect(await apiOrder(o.account, o.widget.id)).to.deep.equal(['Third', 'First', 'Second', 'Third']);
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${o.ids[1]}/copy`, { _csrf: o.csrf, widgetid: String(other.id) }), o.widget.id, 'copied-elsewhere');
    expect(await apiOrder(o.account, other.id)).to.deep.equal(['First']);
    expect(await apiOrder(o.account, o.widget.id)).to.have.length(4);
  });

  it('sets and removes a price through the widget\'s ecardPrices; a bad price is a 400 page', async () => {
    const o = await setup();
    const [a, b] = o.ids as [number, number];
    const prices = async () => {
      const res = await call(stack.url, 'GET', `/v2/api/widget/findOne/id/${o.widget.id}`, { key: o.account.liveKey });
      return (expectSuccess(res) as { ecardPrices: Record<string, number> }).ecardPrices;
    };
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${a}/price`, { _csrf: o.csrf, price: '4.5' }), o.widget.id, 'price-set');
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${b}/price`, { _csrf: o.csrf, price: '2' }), o.widget.id, 'price-set');
    expect(await prices()).to.deep.equal({ [a]: 4.5, [b]: 2 });
    const html = await (await grid(o, o.widget.id)).text();
    expect(html).to.include('Price 4.50').and.include(`id="price-${a}" name="price" type="number" min="0" step="0.01" inputmode="decimal" value="4.50"`);
    for (const bad of ['-1', '1.234', 'ten']) {
      const res = await o.browser.post(`/v2/console/widgets/ecards/${a}/price`, { _csrf: o.csrf, price: bad });
      expect(res.status, bad).to.equal(400);
      expect(await res.text(), bad).to.include(`ecardPrices.${a}`);
    }
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${a}/price`, { _csrf: o.csrf, price: ' ' }), o.widget.id, 'price-removed');
    expect(await prices()).to.deep.equal({ [b]: 2 });
  });

  it('deletes an unused eCard at once; one a send used asks first, naming the impact, and its sent card still opens', async () => {
    const o = await setup();
    const [unused, used] = o.ids as [number, number];
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${unused}/delete`, { _csrf: o.csrf }), o.widget.id, 'deleted');
    expect(await stack.models.Ecard.count({ where: { id: unused } })).to.equal(0);

    const shared = await shareCard(stack.url, o.account.liveKey, used);
    const cardPage = () => fetch(`${stack.url}/e/${shared.statVanityId}`).then(async (r) => ({ status: r.status, html: await r.text() }));
    await eventually(cardPage, (p) => p.status === 200, 15_000, 100);
    const asked = await o.browser.post(`/v2/console/widgets/ecards/${used}/delete`, { _csrf: o.csrf });
    expect(asked.status).to.equal(200);
    const confirm = await asked.text();
    expect(confirm).to.include('Delete the eCard “First”?').and.include('It is used by 1 send.').and.include('name="confirm" value="yes"');
    expect(await stack.models.Ecard.count({ where: { id: used } })).to.equal(1);
    expectDone(await o.browser.post(`/v2/console/widgets/ecards/${used}/delete`, { _csrf: o.csrf, confirm: 'yes' }), o.widget.id, 'deleted');
    expect(await stack.models.Ecard.count({ where: { id: used } })).to.equal(0);
    const after = await cardPage();
    expect(after.status).to.equal(200);
    expect(after.html).to.include('Happy day');
  });

  it('refuses a POST without the CSRF token (or from another origin)', async () => {
    const o = await setup();
    const id = o.ids[0]!;
    const posts: Array<[string, Record<string, string>]> = [
      [`/v2/console/widgets/${o.widget.id}/ecards/order`, { order: String(id) }],
      [`/v2/console/widgets/ecards/${id}/visibility`, { hidden: 'yes' }],
      [`/v2/console/widgets/ecards/${id}/copy`, {}],
      [`/v2/console/widgets/ecards/${id}/price`, { price: '1' }],
      [`/v2/console/widgets/ecards/${id}/delete`, {}],
    ];
    for (const [path, form] of posts) {
      expect((await o.browser.post(path, form)).status, path).to.equal(403);
      expect((await o.browser.post(path, { ...form, _csrf: 'forged' })).status, path).to.equal(403);
      expect((await o.browser.post(path, { ...form, _csrf: o.csrf }, 'https://evil.example')).status, path).to.equal(403);
    }
    const row = (await stack.models.Ecard.findByPk(id))!;
    expect([row.disabled, row.price]).to.deep.equal([false, null]);
    expect(await stack.models.Ecard.count({ where: { widget_id: o.widget.id } })).to.equal(3);
  });

  it('another account\'s widget or eCard is a 404 on every route and stays as it was', async () => {
    const o = await setup();
    const stranger = await newAccount(stack.models);
    const theirs = await insertWidget(stack.models, stranger.accountId, { name: 'Not yours' });
    const their = await insertEcard(stack.models, stranger.accountId, theirs.id, { name: 'Theirs' });
    const mine = o.ids[0]!;
    const answers: Array<[string, Promise<Response>]> = [
      ['grid', grid(o, theirs.id)],
      ['order', o.browser.post(`/v2/console/widgets/${theirs.id}/ecards/order`, { _csrf: o.csrf, order: String(their.id) })],
      ['order naming their eCard', o.browser.post(`/v2/console/widgets/${o.widget.id}/ecards/order`, { _csrf: o.csrf, order: `${mine},${their.id}` })],
      ['hide', o.browser.post(`/v2/console/widgets/ecards/${their.id}/visibility`, { _csrf: o.csrf, hidden: 'yes' })],
      ['copy', o.browser.post(`/v2/console/widgets/ecards/${their.id}/copy`, { _csrf: o.csrf })],
      ['copy into their widget', o.browser.post(`/v2/console/widgets/ecards/${mine}/copy`, { _csrf: o.csrf, widgetid: String(theirs.id) })],
      ['price', o.browser.post(`/v2/console/widgets/ecards/${their.id}/price`, { _csrf: o.csrf, price: '3' })],
      ['delete', o.browser.post(`/v2/console/widgets/ecards/${their.id}/delete`, { _csrf: o.csrf, confirm: 'yes' })],
    ];
    for (const [what, answer] of answers) expect((await answer).status, what).to.equal(404);
    const row = (await stack.models.Ecard.findByPk(their.id))!;
    expect([row.disabled, row.price, row.display_order]).to.deep.equal([false, null, 0]);
    expect(await stack.models.Ecard.count({ where: { widget_id: theirs.id } })).to.equal(1);
    expect(await stack.models.Ecard.count({ where: { widget_id: o.widget.id } })).to.equal(3);
  });
});
