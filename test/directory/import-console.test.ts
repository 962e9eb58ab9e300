// The console's directory import wizard over HTTP, without JavaScript: upload (multipart file, or pasted text) →
// mapping selects prefilled from the header → dry run (counts, problem rows, nothing saved) → apply (303 to the
// result) ; refusals re-render the step with the reason; CSRF and origin checks. Results are read through the key API.
import { expect } from 'chai';
import { call, expectSuccess } from '../helpers/api.ts';
import { hidden, ownerOnPages } from '../helpers/console.ts';
import { outboxEvents } from '../helpers/directory.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

const CSV = 'Email,First name,Surname,Team,Shoe size\nana@example.com,Ana,Alves,Sales;Ops,42\nben@example.com,Ben,Baker,,41\nbroken,Cy,Cole,,40\n';
const unescape = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&#x3D;/g, '=').replace(/&#x60;/g, '`').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const selected = (html: string, name: string) => new RegExp(`name="${name}">(?:(?!</select>).)*?<option value="([^"]*)" selected`, 's').exec(html)?.[1];

describe('console pages: directory import', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let session: Awaited<ReturnType<typeof ownerOnPages>>;
  before(async () => {
    stack = await testStack();
    session = await ownerOnPages(stack, 'pro');
  });
  const members = async () => expectSuccess(await call(stack.url, 'GET', '/v2/api/pub/team-member-actions/list?perPage=100', { key: session.account.liveKey })) as Array<{ email: string; first_name: string; departments: string[] }>;

  it('walks upload → mapping → dry run → apply without JavaScript, saving only at apply and firing no member events', async () => {
    const { browser, csrf } = session;
    const start = await browser.get('/v2/console/directory/import');
    expect(start.status).to.equal(200);
    const upload = await start.text();
    expect(upload).to.include('enctype="multipart/form-data"').and.include('name="file"').and.include('type="file"');

    const file = new FormData();
    file.append('_csrf', csrf);
    file.append('file', new Blob([CSV], { type: 'text/csv' }), 'people.csv');
    const mapped = await browser.postMultipart('/v2/console/directory/import/map', file);
    expect(mapped.status).to.equal(200);
    const map = await mapped.text();
    expect(map).to.include('3 rows read');
    expect(selected(map, 'map_0')).to.equal('email');
    expect(selected(map, 'map_1')).to.equal('first_name');
    expect(selected(map, 'map_2')).to.equal('last_name');
    expect(selected(map, 'map_3')).to.equal('departments');
    expect(selected(map, 'map_4')).to.equal('');
    expect(unescape(hidden(map, 'csv'))).to.equal(CSV);

    const form = { _csrf: csrf, csv: unescape(hidden(map, 'csv')), match_field: 'email', map_0: 'email', map_1: 'first_name', map_2: 'last_name', map_3: 'departments', map_4: '' };
    const dry = await browser.post('/v2/console/directory/import/dry-run', form);
    expect(dry.status).to.equal(200);
    const review = await dry.text();
    const counts = [...review.matchAll(/<span class="import-count">(\d+)<\/span> ([a-z ]+)</g)].map((m) => `${m[1]} ${m[2]}`);
    expect(counts).to.deep.equal(['2 to create', '0 to update', '0 unchanged', '1 with errors']);
    expect(review).to.match(/<td>4<\/td><td>email: expected an email address<\/td>/);
    expect(review).to.include('action="/v2/console/directory/import/apply"');
    expect(await members()).to.deep.equal([]);

    const applied = await browser.post('/v2/console/directory/import/apply', form);
    expect(applied.status).to.equal(303);
    const location = applied.headers.get('location')!;
    expect(location).to.equal('/v2/console/directory/import/done?creates=2&updates=0&unchanged=0&errors=1&lines=4');
    const done = await (await browser.get(location)).text();
    expect(done).to.include('href="/v2/console/directory"').and.include('Skipped rows (the first 20): 4.');
    const saved = await members();
    expect(saved.map((m) => m.email).sort()).to.deep.equal(['ana@example.com', 'ben@example.com']);
    expect(saved.find((m) => m.email === 'ana@example.com')).to.deep.include({ first_name: 'Ana', departments: ['Ops', 'Sales'] });
    expect(await outboxEvents(stack.models, session.account.accountId)).to.deep.equal([]);
  });

  it('refusals show the step again with the reason: no file, an unreadable CSV, a bad mapping', async () => {
    const { browser, csrf } = session;
    const empty = new FormData();
    empty.append('_csrf', csrf);
    const none = await browser.postMultipart('/v2/console/directory/import/map', empty);
    expect(none.status).to.equal(422);
    expect(await none.text()).to.include('Choose a CSV file');

    const pasted = new FormData();
    pasted.append('_csrf', csrf);
    pasted.append('csv_text', 'email\n');
    const noRows = await browser.postMultipart('/v2/console/directory/import/map', pasted);
    expect(noRows.status).to.equal(422);
    expect(await noRows.text()).to.include('a header but no data rows');

    const bad = await browser.post('/v2/console/directory/import/dry-run', { _csrf: csrf, csv: CSV, match_field: 'email', map_0: '', map_1: 'first_name' });
    expect(bad.status).to.equal(400);
    const page = await bad.text();
    expect(page).to.include('no column fills email, the match field').and.include('name="map_0"');
    const forged = await browser.post('/v2/console/directory/import/dry-run', { _csrf: csrf, csv: CSV, match_field: 'email', map_0: 'email', map_1: 'nope' });
    expect(forged.status).to.equal(400);
  });

  it('refuses a form without the CSRF token or from another origin, saving nothing', async () => {
    const { browser, csrf } = session;
    const before = (await members()).length;
    const form = { csv: 'email\nzed@example.com\n', match_field: 'email', map_0: 'email' };
    expect((await browser.post('/v2/console/directory/import/apply', form)).status).to.equal(403);
    expect((await browser.post('/v2/console/directory/import/apply', { ...form, _csrf: 'wrong' })).status).to.equal(403);
    expect((await browser.post('/v2/console/directory/import/apply', { ...form, _csrf: csrf }, 'https://evil.example')).status).to.equal(403);
    const multipart = new FormData();
    multipart.append('_csrf', 'wrong');
    multipart.append('csv_text', 'email\nzed@example.com\n');
    expect((await browser.postMultipart('/v2/console/directory/import/map', multipart)).status).to.equal(403);
    expect((await members()).length).to.equal(before);
  });
});
