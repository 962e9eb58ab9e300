// The console's "Time and quiet hours" page over HTTP, without JavaScript: the defaults shown, a save read back
// through the key API, each refused value shown beside its field with nothing saved, unticking removes the quiet
// hours, CSRF and same-origin checks, and sandbox mode editing the sandbox's own settings.
import { expect } from 'chai';
import { call, expectSuccess } from '../helpers/api.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('console pages: time and quiet hours', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof ownerOnPages>>;
  before(async function () {
    this.timeout(120_000);
    stack = await testStack();
  });
  beforeEach(async () => {
    owner = await ownerOnPages(stack);
  });

  const settings = async (key = owner.account.liveKey) => expectSuccess(await call(stack.url, 'GET', '/v2/api/account/settings', { key }));
  const post = (form: Record<string, string>, csrf: string | null = owner.csrf) => owner.browser.post('/v2/console/local-time', { ...(csrf ? { _csrf: csrf } : {}), ...form });
  const html = async (path = '/v2/console/local-time') => {
    const res = await owner.browser.get(path);
    expect(res.status).to.equal(200);
    return res.text();
  };

  it('shows the defaults under Settings: UTC selected, quiet hours unticked', async () => {
    const page = await html();
    expect(page).to.include('<a href="/v2/console/local-time" aria-current="page">Time and quiet hours</a>');
    expect(page).to.include('<option value="UTC" selected>UTC</option>').and.include('<option value="Asia/Tokyo">Asia/Tokyo</option>');
    expect(page).to.match(/<input type="checkbox" name="quiet" value="on">/);
    expect(page).to.include('Nothing uses these settings yet');
  });

  it('saves the zone and quiet hours across midnight (303, then a notice); the key API answers them; the page shows them', async () => {
    const saved = await post({ default_timezone: 'Asia/Tokyo', quiet: 'on', quiet_start: '22:00', quiet_end: '07:00' });
    expect(saved.status, await saved.clone().text()).to.equal(303);
    expect(saved.headers.get('location')).to.equal('/v2/console/local-time?done=saved');
    expect(await settings()).to.deep.equal({ default_timezone: 'Asia/Tokyo', quiet_hours: { start: '22:00', end: '07:00' } });
    const page = await html('/v2/console/local-time?done=saved');
    expect(page).to.include('The settings are saved.').and.include('<option value="Asia/Tokyo" selected>Asia/Tokyo</option>');
    expect(page).to.include('name="quiet" value="on" checked').and.include('value="22:00"').and.include('value="07:00"');

    // Unticked, the quiet hours go whatever the time fields hold; the zone stays as posted.
    expect((await post({ default_timezone: 'Asia/Tokyo', quiet_start: '22:00', quiet_end: '07:00' })).status).to.equal(303);
    expect(await settings()).to.deep.equal({ default_timezone: 'Asia/Tokyo', quiet_hours: null });
  });

  it('a bad zone, a bad time or an empty window shows the form again with the reason beside the field; nothing is saved', async () => {
    const bad = await post({ default_timezone: 'Mars/Base', quiet: 'on', quiet_start: '22:00', quiet_end: '07:00' });
    expect(bad.status).to.equal(400);
    const badPage = await bad.text();
    expect(badPage).to.match(/<p class="field-error" id="default_timezone-error">Expected an IANA time zone name like Europe\/Berlin<\/p>/);
    // The zone as typed is kept in the picker, the times too.
    expect(badPage).to.include('<option value="Mars/Base" selected>Mars/Base</option>').and.include('value="22:00"');

    const time = await post({ default_timezone: 'UTC', quiet: 'on', quiet_start: '9:5', quiet_end: '' });
    expect(time.status).to.equal(400);
    const timePage = await time.text();
    expect(timePage).to.include('id="quiet_start-error">Expected a 24-hour time HH:MM, e.g. 22:00</p>').and.include('id="quiet_end-error">');

    const empty = await post({ default_timezone: 'UTC', quiet: 'on', quiet_start: '08:00', quiet_end: '08:00' });
    expect(empty.status).to.equal(422);
    expect(await empty.text()).to.include('id="quiet-error">The quiet hours start and end at the same time');
    expect(await settings()).to.deep.equal({ default_timezone: 'UTC', quiet_hours: null });
  });

  it('refuses a post without the CSRF token or from another origin', async () => {
    expect((await post({ default_timezone: 'Asia/Tokyo' }, null)).status).to.equal(403);
    expect((await owner.browser.post('/v2/console/local-time', { _csrf: owner.csrf, default_timezone: 'Asia/Tokyo' }, 'https://evil.example')).status).to.equal(403);
    expect(await settings()).to.deep.equal({ default_timezone: 'UTC', quiet_hours: null });
  });

  it('in sandbox mode edits the sandbox’s own settings; the live account keeps its own', async () => {
    expect((await owner.browser.post('/v2/console/mode', { _csrf: owner.csrf, mode: 'sandbox' })).status).to.equal(303);
    expect(await html()).to.include('these are the sandbox’s own settings');
    expect((await post({ default_timezone: 'Europe/Oslo', quiet: 'on', quiet_start: '21:30', quiet_end: '06:00' })).status).to.equal(303);
    expect(await settings(owner.account.sandboxKey)).to.deep.equal({ default_timezone: 'Europe/Oslo', quiet_hours: { start: '21:30', end: '06:00' } });
    expect(await settings()).to.deep.equal({ default_timezone: 'UTC', quiet_hours: null });
  });
});
