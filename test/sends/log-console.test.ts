// The console's Send page and sends log over HTTP, without JavaScript: the form (refusals beside their fields, 4xx,
// nothing written), email now / scheduled / share link through the send use case, the log's filters and paging, a
// send's page with cancel behind a confirmation, another account's send 404, CSRF, and the CSV export (BOM,
// formula-looking cells defused, an attachment).
import { expect } from 'chai';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Browser = Awaited<ReturnType<typeof ownerOnPages>>['browser'];

describe('console pages: send and the sends log', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let browser: Browser;
  let csrf: string;
  let accountId: number;
  let ecardId: number;
  let widgetId: number;
  const tag = `s${Date.now()}`;

  before(async () => {
    stack = await testStack();
    const owner = await ownerOnPages(stack, 'pro');
    ({ browser, csrf } = owner);
    accountId = owner.account.accountId;
    const widget = await insertWidget(stack.models, accountId, { name: 'Thanks widget' });
    widgetId = widget.id;
    ecardId = (await insertEcard(stack.models, accountId, widget.id, { name: 'Thank you card' })).id;
    const hiddenCard = await insertEcard(stack.models, accountId, widget.id, { name: 'Hidden card' });
    await hiddenCard.update({ disabled: true });
  });

  /** The whole form as a browser posts it (three recipient rows, blank unless given). */
  const sendForm = (fields: Record<string, string>) => ({
    _csrf: csrf, form_key: crypto.randomUUID(), ecardid: String(ecardId), sender_name: 'Sam Sender', sender_email: 'sam@example.com', message: '',
    recipient_name_1: '', recipient_email_1: '', recipient_name_2: '', recipient_email_2: '', recipient_name_3: '', recipient_email_3: '',
    delivery: 'now', send_at: '', timezone: 'UTC', ...fields,
  });
  const sendsOf = () => stack.models.Send.count({ where: { account_id: accountId } });
  /** Posts the form; answers the send id of the 303 to its answer page. */
  async function send(fields: Record<string, string>): Promise<string> {
    const res = await browser.post('/v2/console/send', sendForm(fields));
    expect(res.status, await res.clone().text()).to.equal(303);
    const match = /^\/v2\/console\/send\/sent\/([0-9a-f-]{36})\?tz=/.exec(res.headers.get('location') ?? '');
    expect(match, res.headers.get('location') ?? '').to.not.equal(null);
    return match![1]!;
  }

  it('the form offers the account’s sendable eCards only; bad input is 4xx with the messages beside the fields and writes nothing', async () => {
    const form = await (await browser.get('/v2/console/send')).text();
    expect(form).to.include('Thank you card').and.include('name="recipient_email_3"').and.include('<option value="UTC" selected>UTC</option>');
    expect(form).to.not.include('Hidden card');
    expect(form).to.include(`name="_csrf" value="${csrf}"`);

    const bad = await browser.post('/v2/console/send', sendForm({ sender_email: 'not-an-email', recipient_name_1: 'Rita', recipient_email_2: 'x@example.com' }));
    expect(bad.status).to.equal(400);
    const html = await bad.text();
    expect(html).to.match(/id="sender_email"[^>]*aria-invalid="true"/);
    expect(html).to.include('id="sender_email-error">“not-an-email” is not a valid email address.');
    expect(html).to.include('id="recipient_email_1-error">Give this recipient’s email address.');
    expect(html).to.include('id="recipient_name_2-error">Give this recipient’s name.');
    expect(html).to.include('value="Rita"').and.include('value="x@example.com"');

    const none = await browser.post('/v2/console/send', sendForm({ delivery: 'schedule', send_at: '2020-01-01T10:00' }));
    expect(none.status).to.equal(400);
    expect(await none.text()).to.include('Give at least one recipient.');
    // The use case's own refusal (a time in the past) stands beside its field too.
    const past = await browser.post('/v2/console/send', sendForm({ delivery: 'schedule', send_at: '2020-01-01T10:00', recipient_name_1: 'Rita', recipient_email_1: 'rita@example.com' }));
    expect(past.status).to.equal(422);
    expect(await past.text()).to.include('id="send_at-error">sendAt 2020-01-01T10:00:00.000Z is in the past');
    expect(await sendsOf()).to.equal(0);

    // No JavaScript: "More recipient rows" gives the form back with more rows, the typed values kept; nothing sent.
    const more = await browser.post('/v2/console/send', sendForm({ more: 'rows', recipient_name_1: 'Kept' }));
    expect(more.status).to.equal(200);
    expect(await more.text()).to.include('name="recipient_email_8"').and.include('value="Kept"');
    expect(await sendsOf()).to.equal(0);

    expect((await browser.post('/v2/console/send', { ...sendForm({ recipient_name_1: 'R', recipient_email_1: 'r@example.com' }), _csrf: '' })).status).to.equal(403);
    expect(await sendsOf()).to.equal(0);
  });

  it('sends now: the answer page says so and links to the send’s page, which lists each recipient; the email arrives', async () => {
    const to = `rita-${tag}@example.com`;
    const id = await send({ recipient_name_1: 'Rita', recipient_email_1: to, recipient_name_2: 'Otto', recipient_email_2: `otto-${tag}@example.com`, message: 'Thanks for <everything>\nSee you' });
    const done = await (await browser.get(`/v2/console/send/sent/${id}?tz=UTC`)).text();
    expect(done).to.include('Card sent').and.include('went out in 2 email(s)').and.include(`href="/v2/console/sends/${id}"`);
    const mail = await eventually(async () => (await testSmtpServer()).to(to), (m) => m.length > 0, 15_000);
    expect(mail[0]!.html).to.include('Thanks for &lt;everything&gt;');
    const page = await (await browser.get(`/v2/console/sends/${id}`)).text();
    expect(page).to.include(to).and.include('Otto').and.include('Thank you card').and.include('not opened');
    expect(page).to.not.include('Cancel this send');
  });

  it('schedules in a time zone, shows the time there, and cancels behind a confirmation (CSRF-checked); the quota is given back', async () => {
    const when = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const id = await send({ delivery: 'schedule', send_at: `${when}T09:30`, timezone: 'Asia/Kolkata', recipient_name_1: 'Later', recipient_email_1: `later-${tag}@example.com` });
    const done = await (await browser.get(`/v2/console/send/sent/${id}?tz=Asia/Kolkata`)).text();
    expect(done).to.include('Card scheduled').and.include(`${when} 09:30</strong> (Asia/Kolkata)`).and.include(`${when} 04:00:00 UTC`);
    const row = await stack.models.Send.findOne({ where: { send_id: id }, rejectOnEmpty: true });
    expect(row.status).to.equal('scheduled');
    expect(row.send_at.toISOString()).to.equal(`${when}T04:00:00.000Z`);
    const used = async () => (await stack.models.QuotaUsage.findOne({ where: { account_id: accountId, month: row.quota_month! }, rejectOnEmpty: true })).used;
    const reserved = await used();

    const detail = await (await browser.get(`/v2/console/sends/${id}`)).text();
    expect(detail).to.include(`href="/v2/console/sends/${id}/cancel"`);
    const confirm = await (await browser.get(`/v2/console/sends/${id}/cancel`)).text();
    expect(confirm).to.include('Cancel this send?').and.include(`action="/v2/console/sends/${id}/cancel"`);
    expect((await browser.post(`/v2/console/sends/${id}/cancel`, { _csrf: 'wrong' })).status).to.equal(403);
    expect((await browser.post(`/v2/console/sends/${id}/cancel`, { _csrf: csrf }, 'https://evil.example')).status).to.equal(403);
    const canceled = await browser.post(`/v2/console/sends/${id}/cancel`, { _csrf: csrf });
    expect(canceled.status).to.equal(303);
    expect(canceled.headers.get('location')).to.equal(`/v2/console/sends/${id}?done=canceled`);
    await row.reload();
    expect(row.status).to.equal('canceled');
    expect(await used()).to.equal(reserved - 1);
    expect(await (await browser.get(`/v2/console/sends/${id}?done=canceled`)).text()).to.include('The send is canceled');
    const again = await browser.post(`/v2/console/sends/${id}/cancel`, { _csrf: csrf });
    expect(again.status).to.equal(422);
    expect(await again.text()).to.include('only a scheduled send can be canceled');
  });

  it('a share link: the answer page shows the link', async () => {
    const id = await send({ delivery: 'link', recipient_name_1: 'Link reader' });
    const done = await (await browser.get(`/v2/console/send/sent/${id}`)).text();
    const row = await stack.models.Send.findOne({ where: { send_id: id }, rejectOnEmpty: true });
    expect(done).to.include('The share link is ready').and.include(`value="${stack.url}/e/${row.stat_vanity_id}"`);
  });

  it('the log filters by status, origin, widget, eCard, dates and exact recipient email; a bad filter is 400 beside its field', async () => {
    const all = await (await browser.get('/v2/console/sends')).text();
    expect(all).to.include('3 send(s)');
    const canceled = await (await browser.get('/v2/console/sends?status=canceled')).text();
    expect(canceled).to.include('1 matching send(s)').and.include(`later-${tag}@example.com`);
    expect(canceled).to.not.include(`rita-${tag}@example.com`);
    const byEmail = await (await browser.get(`/v2/console/sends?recipientEmail=${encodeURIComponent(`OTTO-${tag}@example.com`)}`)).text();
    expect(byEmail).to.include('1 matching send(s)').and.include(`rita-${tag}@example.com`).and.include('+1 more');
    expect(await (await browser.get(`/v2/console/sends?recipientEmail=otto-${tag}@example.co`)).text()).to.include('No sends match');
    const today = new Date().toISOString().slice(0, 10);
    const scoped = await (await browser.get(`/v2/console/sends?origin=single&widgetId=${widgetId}&ecardId=${ecardId}&dateFrom=${today}&dateTo=${today}`)).text();
    expect(scoped).to.include('3 matching send(s)').and.include('Clear the filters');
    expect(await (await browser.get('/v2/console/sends?dateTo=2001-01-01')).text()).to.include('No sends match');
    expect(await (await browser.get('/v2/console/sends?origin=campaign')).text()).to.include('No sends match');

    const bad = await browser.get('/v2/console/sends?dateFrom=yesterday&recipientEmail=nope');
    expect(bad.status).to.equal(400);
    const html = await bad.text();
    expect(html).to.include('id="f-from-error">Give a date as YYYY-MM-DD.').and.include('id="f-email-error">Give a whole email address').and.include('value="yesterday"');
  });

  it('pages through 50 rows at a time, filters kept in the links', async () => {
    const other = await ownerOnPages(stack);
    const widget = await insertWidget(stack.models, other.account.accountId);
    const ecard = await insertEcard(stack.models, other.account.accountId, widget.id);
    for (let i = 0; i < 52; i++) await insertSend(stack.models, ecard, `p${i}@example.com`, { workflowStarted: true });
    const first = await (await other.browser.get('/v2/console/sends?status=pending')).text();
    expect(first).to.include('52 matching send(s) · page 1 of 2');
    expect((first.match(/<tr>/g) ?? []).length).to.equal(51);
    expect(first).to.include('href="/v2/console/sends?status&#x3D;pending&amp;page&#x3D;2" rel="next"');
    const second = await (await other.browser.get('/v2/console/sends?status=pending&page=2')).text();
    expect(second).to.include('page 2 of 2').and.include('rel="prev"');
    expect((second.match(/<tr>/g) ?? []).length).to.equal(3);
  });

  it('another account’s send is 404 on every send page and as a filter; nothing of theirs changes', async () => {
    const other = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, other.accountId);
    const ecard = await insertEcard(stack.models, other.accountId, widget.id);
    const theirs = await insertSend(stack.models, ecard, 'them@example.com', { workflowStarted: true });
    await theirs.update({ status: 'scheduled', mode: 'schedule' });
    for (const path of [`/v2/console/sends/${theirs.send_id}`, `/v2/console/send/sent/${theirs.send_id}`, `/v2/console/sends/${theirs.send_id}/cancel`, `/v2/console/sends?widgetId=${widget.id}`, `/v2/console/sends?ecardId=${ecard.id}`, `/v2/console/sends/export.csv?ecardId=${ecard.id}`, `/v2/console/send?ecardid=${ecard.id}`]) {
      const res = await browser.get(path);
      expect(res.status, path).to.equal(404);
      expect(await res.text(), path).to.not.include('them@example.com');
    }
    expect((await browser.post(`/v2/console/sends/${theirs.send_id}/cancel`, { _csrf: csrf })).status).to.equal(404);
    const refused = await browser.post('/v2/console/send', sendForm({ ecardid: String(ecard.id), recipient_name_1: 'R', recipient_email_1: 'r@example.com' }));
    expect(refused.status).to.equal(404);
    expect(await refused.text()).to.include('id="ecardid-error"');
    await theirs.reload();
    expect(theirs.status).to.equal('scheduled');
    expect((await browser.get('/v2/console/sends/not-a-uuid')).status).to.equal(400);
  });

  it('exports the filtered log as CSV: an attachment, UTF-8 with a BOM, a row per recipient, formula-looking cells defused', async () => {
    await send({ recipient_name_1: '=HYPERLINK("http://evil.example","x")', recipient_email_1: `formula-${tag}@example.com`, recipient_name_2: '@SUM(1)', recipient_email_2: `at-${tag}@example.com`, sender_name: '-Minus, "quoted"' });
    const list = await (await browser.get('/v2/console/sends?status=sent')).text();
    expect(list).to.include('href="/v2/console/sends/export.csv?status&#x3D;sent"');
    const res = await browser.get('/v2/console/sends/export.csv?status=sent');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="sends-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).to.equal('send_id,created_at,send_at,status,mode,origin,ecard_id,ecard_name,widget_id,widget_name,sender_name,sender_email,recipient_position,recipient_name,recipient_email,recipient_status,opened_at,error');
    // Three sent sends, newest first: this one (two recipients), the share link (one), the first (two).
    expect(lines).to.have.length(6);
    expect(lines[1]).to.include(`"'=HYPERLINK(""http://evil.example"",""x"")",formula-${tag}@example.com,sent`);
    expect(lines[1]).to.include(`"'-Minus, ""quoted"""`);
    expect(lines[2]).to.include(`'@SUM(1),at-${tag}@example.com`);
    expect(lines[3]).to.include(',share,single,').and.include('Link reader');
    expect(lines[4]).to.include(`rita-${tag}@example.com`);
    expect(text).to.not.match(/,=|,@|,\+/);
  });
});
