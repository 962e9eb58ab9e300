import { expect } from 'chai';
import { apiClient, call, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { type ConsoleClient, OWNER_PASSWORD, ownerUser, signedInConsole, signedInPages } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { apiDocument, consoleDocument, slotsOf, type Document, type Operation } from './documents.ts';
import { makeEverything, snapshot, type Made } from './fixtures.ts';
import { pageRequests, unmappedPageRoutes, type PageRequest } from './pages.ts';
import { buildRequest, type BuiltRequest } from './requests.ts';

// decisions.md (Proof, isolation): every route, called with A's live key or A's console session and naming one of
// B's or A's sandbox's ids (path, query, body, nested; id filters too), answers 404 and changes nothing of theirs.
// The routes and their id slots come from the documents (x-resource), so a new route is in the matrix by itself.
describe('isolation matrix', function () {
  this.timeout(240_000);
  let stack: TestStack;
  let a: TestAccount;
  let b: TestAccount;
  let session: ConsoleClient;
  let own: Made;
  let victims: Array<{ name: string; made: Made }>;
  let untouched: Record<string, unknown[]>;

  before(async () => {
    stack = await testStack();
    ({ account: a, client: session } = await signedInConsole(stack, { plan: 'enterprise' }));
    b = await newAccount(stack.models, 'enterprise');
    own = await makeEverything(stack, a.accountId, a.liveKey, a);
    victims = [
      { name: 'B', made: await makeEverything(stack, b.accountId, b.liveKey, b) },
      { name: 'A sandbox', made: await makeEverything(stack, a.sandboxAccountId, a.sandboxKey) },
    ];
    // Outbox rows live in sandboxes: B's is the foreign one (A's own sandbox is A's in the console's sandbox mode).
    victims[1]!.made.ids.sandbox_email = undefined;
    own.ids.sandbox_email = (await stack.models.MailSinkMessage.findOne({ where: { account_id: a.sandboxAccountId }, rejectOnEmpty: true })).id;
    victims[0]!.made.ids.sandbox_email = (await stack.models.MailSinkMessage.findOne({ where: { account_id: b.sandboxAccountId }, rejectOnEmpty: true })).id;
    expect(expectSuccess(await session.call('POST', '/step-up', { body: { password: OWNER_PASSWORD } }))).to.be.an('object');
    untouched = await snapshot(stack.models, [b.accountId, b.sandboxAccountId, a.sandboxAccountId]);
  });

  type Caller = (request: BuiltRequest) => Promise<{ status: number; body: Record<string, unknown> }>;
  const apiCaller: Caller = (r) => call(stack.url, r.method, `/v2/api${r.path}`, { key: a.liveKey, ...(r.body === undefined ? {} : { body: r.body }) });
  const consoleCaller: Caller = async (r) => {
    // The outbox is the sandbox's: it is read in the console's sandbox mode.
    const sandbox = r.path.startsWith('/outbox');
    if (sandbox) expectSuccess(await session.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    try {
      return await session.call(r.method, r.path, r.body === undefined ? {} : { body: r.body });
    } finally {
      if (sandbox) expectSuccess(await session.call('POST', '/mode', { body: { mode: 'live' } }));
    }
  };

  /** Every (route, id slot, victim) call; the answers that are not 404. */
  async function namingForeignIds(doc: Document, send: Caller): Promise<string[]> {
    const wrong: string[] = [];
    let calls = 0;
    for (const op of doc.operations) {
      const tokenNames = slotsOf(doc, op).filter((s) => s.in === 'body' && s.at.length === 1 && /confirmation_token$/.test(s.name)).map((s) => s.name);
      for (const slot of slotsOf(doc, op).filter((s) => s.kind)) {
        for (const victim of victims) {
          if (victim.made.ids[slot.kind === 'token_resource' ? 'widget' : slot.kind!] === undefined) continue;
          // Ownership comes before any token gate: the same call with a token is still 404.
          const variants: Array<Record<string, unknown> | undefined> = [undefined, ...tokenNames.map((name) => ({ [name]: 'isolation-token-not-checked-first' }))];
          for (const extra of variants) {
            const request = buildRequest(doc, op, own, { slot, victim: victim.made, ...(extra ? { extra } : {}) });
            const res = await send(request);
            calls += 1;
            if (res.status !== 404) wrong.push(`${request.method} ${request.path} ${JSON.stringify(request.body ?? null)} [${slot.at.join('.')} of ${victim.name}] → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          }
        }
      }
    }
    expect(calls, 'calls made').to.be.greaterThan(20);
    return wrong;
  }

  /** Every read the account may make with its own ids: 200, and nothing of B or the sandbox in it. */
  async function readsOwnRows(doc: Document, send: Caller, skip: (op: Operation) => boolean = () => false): Promise<string[]> {
    const wrong: string[] = [];
    const markers = victims.flatMap((v) => v.made.markers);
    for (const op of doc.operations.filter((o) => o.method === 'get' && !skip(o))) {
      const request = buildRequest(doc, op, own);
      const res = await send(request);
      const text = JSON.stringify(res.body);
      if (res.status !== 200) wrong.push(`${request.path} → ${res.status} ${text.slice(0, 200)}`);
      const leaked = markers.filter((m) => text.includes(m));
      if (leaked.length) wrong.push(`${request.path} shows ${leaked.join(', ')}`);
    }
    return wrong;
  }

  it('the key API: every route naming B’s or the sandbox’s ids answers 404, id filters included', async () => {
    expect(await namingForeignIds(apiDocument(), apiCaller)).to.deep.equal([]);
  });

  it('the console API: every route naming B’s or the sandbox’s ids answers 404', async () => {
    expect(await namingForeignIds(consoleDocument(), consoleCaller)).to.deep.equal([]);
  });

  it('the console pages: every page naming B’s or the sandbox’s ids in its path, filters or forms answers 404', async () => {
    expect(unmappedPageRoutes(), 'page routes with a path parameter not in test/isolation/pages.ts').to.deep.equal([]);
    const owner = await ownerUser(stack.models, a.accountId);
    const { browser, csrf } = await signedInPages(stack.url, owner.email, OWNER_PASSWORD);
    const form = async (path: string, fields: Record<string, string>) => {
      const res = await browser.post(path, { _csrf: csrf, ...fields });
      expect(res.status, `${path}: ${await res.text()}`).to.equal(303);
    };
    // Stepped up, so no page stops at its password prompt before it looks at the id.
    await form('/v2/console/step-up', { password: OWNER_PASSWORD, next: '/v2/console/' });
    const send = async (r: PageRequest) => {
      // The outbox is the sandbox's: read in the sandbox's mode, as the console API's.
      const sandbox = r.path.startsWith('/v2/console/outbox');
      if (sandbox) await form('/v2/console/mode', { mode: 'sandbox' });
      try {
        return r.method === 'GET' ? await browser.get(r.path) : await browser.post(r.path, { _csrf: csrf, ...r.form });
      } finally {
        if (sandbox) await form('/v2/console/mode', { mode: 'live' });
      }
    };
    const wrong: string[] = [];
    let calls = 0;
    for (const victim of victims) {
      for (const { slot, request } of pageRequests(victim.made)) {
        const res = await send(request);
        calls += 1;
        if (res.status !== 404) wrong.push(`${request.method} ${request.path} ${JSON.stringify(request.form ?? null)} [${slot} of ${victim.name}] → ${res.status} ${(await res.text()).slice(0, 200)}`);
        else await res.arrayBuffer();
      }
    }
    expect(calls, 'calls made').to.be.greaterThan(20);
    expect(wrong).to.deep.equal([]);
  });

  it('reads with the account’s own ids, and lists without id filters, show only the account’s rows', async () => {
    expect(await readsOwnRows(apiDocument(), apiCaller)).to.deep.equal([]);
    expect(await readsOwnRows(consoleDocument(), consoleCaller, (op) => op.path === '/secret')).to.deep.equal([]);
  });

  it('member email and employee_id are the caller’s own keys: B’s answer as unknown, and an upsert makes A’s own member', async () => {
    const them = victims[0]!.made;
    const { api } = apiClient(stack, a.liveKey);
    expect(expectSuccess(await api('GET', `/pub/team-member-actions/find?email=${encodeURIComponent(them.email)}`))).to.deep.equal({});
    expect(expectSuccess(await api('GET', `/pub/team-member-actions/find?employee_id=${encodeURIComponent(them.employeeId)}`))).to.deep.equal({});
    for (const action of ['/deactivate', '/reactivate', '/delete']) {
      for (const key of [{ email: them.email }, { employee_id: them.employeeId }]) {
        const res = await api('POST', `/pub/team-member-actions${action}`, key);
        expect(res.status, `${action} ${JSON.stringify(key)}: ${JSON.stringify(res.body)}`).to.equal(404);
      }
    }
    const made = expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: them.email, first_name: 'Mine' })) as { member: { id: number; email: string } };
    expect(made.member.id).not.to.equal(them.ids.member);
    const byEmployee = expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { employee_id: them.employeeId, email: `mine-${them.email}`, match_field: 'employee_id' })) as { member: { id: number } };
    expect(byEmployee.member.id).not.to.equal(them.ids.member);
    const mine = await stack.models.TeamMember.findAll({ where: { id: [made.member.id, byEmployee.member.id] } });
    expect(mine.map((m) => m.account_id)).to.deep.equal([a.accountId, a.accountId]);
  });

  it('left B and A’s sandbox unchanged', async () => {
    const after = await snapshot(stack.models, [b.accountId, b.sandboxAccountId, a.sandboxAccountId]);
    for (const table of Object.keys(untouched)) expect(after[table], table).to.deep.equal(untouched[table]);
  });

  it('deleting, with tokens, every design, widget and campaign a send used leaves every share page and stored email rendering from the send', async () => {
    const key = a.sandboxKey;
    const { ok } = apiClient(stack, key);
    const marker = `Snapshot header ${process.pid}-${Date.now()}`;
    const widget = await ok<{ id: number }>('POST', '/widget/save', { widget: { name: 'Kept by snapshots', wconfig: {} } });
    const ecard = await ok<{ id: number }>('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'Design', header: marker, emailSubject: `Subject ${marker}`, details: `<p>${marker}</p>` } });
    const shared = await shareCard(stack.url, key, ecard.id);
    const recipient = `snap-${process.pid}-${Date.now()}@example.com`;
    const emailed = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key, body: { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: recipient } });
    expect(emailed.status, JSON.stringify(emailed.body)).to.equal(200);
    const campaign = await ok<{ id: number }>('POST', '/campaign/save', { campaign: { campaign_name: 'Snapshot campaign', from_name: 'People', from_email: 'people@example.com' } });
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: campaign.id, ecardIds: [ecard.id] });
    const campaignRecipient = `camp-${recipient}`;
    await ok('POST', '/campaign/saveRecipients', { campaignid: campaign.id, csvRecipients: [{ email: campaignRecipient, name: 'Carla' }] });
    await ok('POST', '/campaign/send', { campaignid: campaign.id });
    const mails = await eventually(
      () => stack.models.MailSinkMessage.findAll({ where: { account_id: a.sandboxAccountId, recipient: [recipient, campaignRecipient] } }),
      (rows) => rows.length === 2,
      30_000,
      500,
    );
    const campaignShares = await eventually(() => campaignStatVanityIds(campaign.id), (ids) => ids.length === 1, 15_000, 250);

    // The deletes, confirmed by tokens from the console (in the sandbox's mode).
    expectSuccess(await session.call('POST', '/mode', { body: { mode: 'sandbox' } }));
    const token = async (purpose: string, resource: number) => (expectSuccess(await session.call('POST', '/tokens', { body: { purpose, resource_id: resource } })) as { token: string }).token;
    await ok('POST', '/ecard/deleteEcards', { ecardids: [ecard.id], otp_confirmation_token: await token('ecard_delete_in_use', ecard.id) });
    expectSuccess(await session.call('POST', `/campaigns/${campaign.id}/delete`));
    await ok('POST', '/widget/deleteWidgets', { widgetids: [widget.id], otp_confirmation_token: await token('widget_delete', widget.id) });
    expect(await stack.models.Ecard.count({ where: { id: ecard.id } })).to.equal(0);
    expect(await stack.models.Widget.count({ where: { id: widget.id } })).to.equal(0);
    expect(await stack.models.Campaign.count({ where: { id: campaign.id } })).to.equal(0);

    for (const statVanityId of [shared.statVanityId, ...campaignShares]) {
      const page = await fetch(`${stack.url}/e/${statVanityId}`);
      expect(page.status, statVanityId).to.equal(200);
      expect(await page.text()).to.include(marker);
    }
    for (const mail of mails) {
      const shown = expectSuccess(await session.call('GET', `/outbox/${mail.id}`)) as { html: string | null; subject: string };
      expect(shown.subject).to.include(marker);
      expect(shown.html).to.include(marker);
    }
    expectSuccess(await session.call('POST', '/mode', { body: { mode: 'live' } }));
  });

  /** The share pages of a campaign's sends (each recipient's eCard page). */
  async function campaignStatVanityIds(campaignId: number): Promise<string[]> {
    const sends = await stack.models.Send.findAll({ where: { account_id: a.sandboxAccountId, origin: 'campaign', origin_id: campaignId } });
    return sends.map((s) => s.stat_vanity_id);
  }
});
