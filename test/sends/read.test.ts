// Reading sends with a key (issue 34, item 1): GET /pub/ecard-actions/sends (filters, paging, newest first) and
// GET /pub/ecard-actions/sends/{sendId} (the send and its recipients), `sends: view`, directory members' names and
// emails masked without `directory: view`. Real sends: send-ecard to the in-process SMTP server, a campaign through
// its workflow, an automation's batch through the bulk sender.
import { expect } from 'chai';
import { localDateOf } from '../../services/automations/local-date.ts';
import { sendAutomationBatch } from '../../services/automations/batch.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { firingZone, insertAutomation } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;
type Recipient = { name: string | null; email: string | null; status: string; sent_at: string | null; opened_at: string | null; bounced_at: string | null; failure: string | null };
type LoggedSend = Json & { sendId: string; recipients: Recipient[] };

const SENDS = '/pub/ecard-actions/sends';

describe('reading sends with a key', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let counter = 0;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });

  const domain = () => `read${process.pid}-${++counter}.example.com`;
  const { api } = apiClient(() => stack);
  const list = async (query: string, key: string) => {
    const res = await api('GET', `${SENDS}${query ? `?${query}` : ''}`, undefined, key);
    return { sends: expectSuccess(res) as LoggedSend[], meta: res.body.meta as Json };
  };
  const one = async (sendId: string, key: string) => expectSuccess(await api('GET', `${SENDS}/${sendId}`, undefined, key)) as LoggedSend;
  const ids = (sends: LoggedSend[]) => sends.map((s) => s.sendId);

  /** An email send through send-ecard (email now waits for the dispatch; `sendAt` schedules); its send id. */
  async function emailSend(account: TestAccount, ecardId: number, to: string[], extra: Json = {}): Promise<{ sendId: string; status: number; body: Json }> {
    const body = { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: to.map((_, i) => `Reader ${i + 1}`), recipientEmail: to, ...extra };
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body });
    expect(res.body.sendId, JSON.stringify(res.body)).to.be.a('string');
    return { sendId: res.body.sendId as string, status: res.status, body: res.body };
  }

  async function catalog(account: TestAccount) {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    return { widget, ecard };
  }

  describe('one send', () => {
    let account: TestAccount;
    let ecardId: number;
    let widgetId: number;
    before(async () => {
      account = await newAccount(stack.models, 'pro');
      ({ ecard: { id: ecardId }, widget: { id: widgetId } } = await catalog(account));
    });

    it('answers the send (ids, origin, times) and each recipient in order: name, email, sent, opened and bounced times, no failure', async () => {
      const at = domain();
      const { sendId } = await emailSend(account, ecardId, [`rita@${at}`, `omar@${at}`]);
      const send = await one(sendId, account.liveKey);
      const row = await stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
      const rows = await stack.models.SendRecipient.findAll({ where: { send_id: row.id }, order: [['position', 'ASC']] });
      expect(send).to.deep.equal({
        sendId,
        status: 'sent',
        origin: 'single',
        ecardid: ecardId,
        widgetid: widgetId,
        campaign_id: null,
        automation_id: null,
        createdat: row.created_at.toISOString(),
        scheduled_to_be_sent_at: row.send_at.toISOString(),
        sent_at: new Date(Math.max(rows[0]!.finished_at!.getTime(), rows[1]!.finished_at!.getTime())).toISOString(),
        recipients: [
          { name: 'Reader 1', email: `rita@${at}`, status: 'sent', sent_at: rows[0]!.finished_at!.toISOString(), opened_at: null, bounced_at: null, failure: null },
          { name: 'Reader 2', email: `omar@${at}`, status: 'sent', sent_at: rows[1]!.finished_at!.toISOString(), opened_at: null, bounced_at: null, failure: null },
        ],
      });
    });

    it('a recipient’s open (the open action) and a bounce recorded on it show as opened_at and bounced_at', async () => {
      const { sendId } = await emailSend(account, ecardId, [`open@${domain()}`]);
      const row = await stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
      const recipient = await stack.models.SendRecipient.findOne({ where: { send_id: row.id }, rejectOnEmpty: true });
      const opened = await fetch(`${stack.url}/e/${recipient.page_id}/open`, { method: 'POST', redirect: 'manual' });
      expect(opened.status).to.equal(303);
      // The bounce listener (a later item) sets bounced_at; here it is written as it will be.
      const bouncedAt = new Date('2026-03-01T10:00:00.123Z');
      await recipient.update({ bounced_at: bouncedAt });
      await recipient.reload();
      const [shown] = (await one(sendId, account.liveKey)).recipients;
      expect(shown).to.deep.include({ status: 'sent', opened_at: recipient.opened_at!.toISOString(), bounced_at: bouncedAt.toISOString() });
      expect(recipient.opened_at).to.be.an.instanceOf(Date);
    });

    it('a recipient whose email the server refused is failed with the stored reason; the send is failed and has no sent_at', async () => {
      smtp.failNext(1, 550, '5.1.1 Mailbox unavailable');
      const { sendId, status } = await emailSend(account, ecardId, [`gone@${domain()}`]);
      expect(status).to.equal(502);
      const send = await one(sendId, account.liveKey);
      expect(send).to.deep.include({ status: 'failed', sent_at: null });
      expect(send.recipients).to.have.length(1);
      expect(send.recipients[0]).to.deep.include({ status: 'failed', sent_at: null, opened_at: null });
      expect(send.recipients[0]!.failure).to.match(/Mailbox unavailable/);
    });

    it('a scheduled send answers scheduled_to_be_sent_at and pending recipients; a share link its recipient without an email', async () => {
      const sendAt = new Date(Date.now() + 86_400_000);
      const to = `later@${domain()}`;
      const scheduled = await emailSend(account, ecardId, [to], { sendAt: sendAt.toISOString() });
      const send = await one(scheduled.sendId, account.liveKey);
      expect(send).to.deep.include({ status: 'scheduled', scheduled_to_be_sent_at: sendAt.toISOString(), sent_at: null });
      expect(send.recipients).to.deep.equal([{ name: 'Reader 1', email: to, status: 'pending', sent_at: null, opened_at: null, bounced_at: null, failure: null }]);
      const shared = await shareCard(stack.url, account.liveKey, ecardId, { recipientName: 'Link reader' });
      const link = await one(shared.sendId, account.liveKey);
      expect(link).to.deep.include({ origin: 'single', sent_at: null });
      expect(link.recipients).to.have.length(1);
      // A share link's recipient is sent (its page is live) but was never emailed: no sent_at.
      expect(link.recipients[0]).to.deep.include({ name: 'Link reader', email: null, status: 'sent', sent_at: null });
    });
  });

  describe('the list: filters', () => {
    let account: TestAccount;
    let at: string;
    const made: Record<string, string> = {};
    let cards: { a: number; b: number; widgetB: number };
    let campaignId: number;
    let automationId: number;

    before(async () => {
      account = await newAccount(stack.models, 'pro');
      at = domain();
      const one = await catalog(account);
      const widgetB = await insertWidget(stack.models, account.accountId, { name: 'Second' });
      const b = await insertEcard(stack.models, account.accountId, widgetB.id);
      cards = { a: one.ecard.id, b: b.id, widgetB: widgetB.id };
      made.email = (await emailSend(account, cards.a, [`alice@${at}`])).sendId;
      made.scheduled = (await emailSend(account, cards.b, [`bob@${at}`], { sendAt: new Date(Date.now() + 86_400_000).toISOString() })).sendId;
      made.share = (await shareCard(stack.url, account.liveKey, cards.a)).sendId;
      // Made earlier: its creation time moved back, for the date filters.
      await stack.models.Send.update({ created_at: new Date('2020-01-05T10:00:00.000Z') }, { where: { send_id: made.email } });

      // A campaign to one CSV row.
      const { ok } = apiClient(stack, account.liveKey);
      campaignId = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Filters', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
      await ok('POST', '/campaign/saveCampaignEcards', { campaignid: campaignId, ecardIds: [cards.a] });
      await ok('POST', '/campaign/saveRecipients', { campaignid: campaignId, csvRecipients: [{ email: `carol@${at}`, name: 'Carol' }] });
      await ok('POST', '/campaign/send', { campaignid: campaignId });
      await eventually(() => stack.models.Campaign.findByPk(campaignId), (c) => c?.status === 'sent', 60_000, 100);
      made.campaign = (await stack.models.Send.findOne({ where: { account_id: account.accountId, origin: 'campaign' }, rejectOnEmpty: true })).send_id;

      // An automation's card to one member, through its batch (as a firing's bulk activity runs it).
      automationId = (await automationSend(account, cards.a, `dan@${at}`)).automationId;
      made.automation = (await stack.models.Send.findOne({ where: { account_id: account.accountId, origin: 'automation' }, rejectOnEmpty: true })).send_id;
    });

    const filtered = async (query: string) => ids((await list(query, account.liveKey)).sends).sort();
    const only = (...names: string[]) => names.map((n) => made[n]!).sort();

    it('no filter: every send of the account, newest first', async () => {
      const { sends } = await list('', account.liveKey);
      expect(ids(sends)).to.have.members(only('email', 'scheduled', 'share', 'campaign', 'automation'));
      const created = sends.map((s) => Date.parse(s.createdat as string));
      expect(created).to.deep.equal([...created].sort((x, y) => y - x));
      expect(ids(sends).at(-1)).to.equal(made.email);
    });

    it('status', async () => {
      expect(await filtered('status=scheduled')).to.deep.equal(only('scheduled'));
      expect(await filtered('status=canceled')).to.deep.equal([]);
    });

    it('origin', async () => {
      expect(await filtered('origin=campaign')).to.deep.equal(only('campaign'));
      expect(await filtered('origin=automation')).to.deep.equal(only('automation'));
      expect(await filtered('origin=single')).to.deep.equal(only('email', 'scheduled', 'share'));
    });

    it('ecardId and widgetId (or their aliases)', async () => {
      expect(await filtered(`ecardId=${cards.b}`)).to.deep.equal(only('scheduled'));
      expect(await filtered(`widgetId=${cards.widgetB}`)).to.deep.equal(only('scheduled'));
      expect(await filtered(`widgetid=${cards.widgetB}`)).to.deep.equal(only('scheduled'));
    });

    it('campaign_id and automation_id: that campaign’s or automation’s sends, answering their ids', async () => {
      expect(await filtered(`campaign_id=${campaignId}`)).to.deep.equal(only('campaign'));
      expect(await filtered(`automation_id=${automationId}`)).to.deep.equal(only('automation'));
      const [campaignSend] = (await list(`campaign_id=${campaignId}`, account.liveKey)).sends;
      expect(campaignSend).to.deep.include({ origin: 'campaign', campaign_id: campaignId, automation_id: null, status: 'sent' });
      const [automationSent] = (await list(`automation_id=${automationId}`, account.liveKey)).sends;
      expect(automationSent).to.deep.include({ origin: 'automation', campaign_id: null, automation_id: automationId, status: 'sent' });
    });

    it('recipientEmail: exact and case-insensitive', async () => {
      expect(await filtered(`recipientEmail=${encodeURIComponent(`ALICE@${at.toUpperCase()}`)}`)).to.deep.equal(only('email'));
      expect(await filtered(`recipientEmail=${encodeURIComponent(`carol@${at}`)}`)).to.deep.equal(only('campaign'));
      expect(await filtered(`recipientEmail=${encodeURIComponent(`lice@${at}`)}`)).to.deep.equal([]);
    });

    it('dateFrom and dateTo: UTC days include their whole day; instants are inclusive bounds', async () => {
      expect(await filtered('dateFrom=2020-01-05&dateTo=2020-01-05')).to.deep.equal(only('email'));
      expect(await filtered('dateTo=2020-01-05T10:00:00.000Z')).to.deep.equal(only('email'));
      expect(await filtered('dateTo=2020-01-05T09:59:59.999Z')).to.deep.equal([]);
      expect(await filtered(`dateFrom=${encodeURIComponent('2020-01-05T11:00:00+01:00')}&dateTo=2020-01-05`)).to.deep.equal(only('email'));
      expect(await filtered('dateFrom=2020-01-06')).to.deep.equal(only('scheduled', 'share', 'campaign', 'automation'));
    });

    it('filters combine', async () => {
      expect(await filtered(`ecardId=${cards.a}&origin=single`)).to.deep.equal(only('email', 'share'));
      expect(await filtered(`ecardId=${cards.a}&origin=single&dateFrom=2020-01-06`)).to.deep.equal(only('share'));
    });
  });

  /** An enabled birthday automation with one member due today, its batch run by the services: the send it made. */
  async function automationSend(account: TestAccount, ecardId: number, email: string): Promise<{ automationId: number; memberId: number }> {
    const zone = firingZone();
    const today = localDateOf(new Date(), zone);
    const member = await stack.models.TeamMember.create({
      account_id: account.accountId, email, employee_id: null, first_name: 'Dana', last_name: 'Member', job_position: null,
      date_of_birth: `1992-${today.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
    });
    const row = await insertAutomation(stack.models, account.accountId, zone, ecardId);
    const [due] = await stack.models.AutomationSend.bulkCreate([
      { automation_id: row.id, account_id: account.accountId, member_id: member.id, occurrence_key: today.slice(0, 4), firing_date: today, occasion_date: member.date_of_birth, send_date: today },
    ]);
    const counts = await sendAutomationBatch(stack.services, { accountId: account.accountId, automationId: row.id, firingDate: today, afterId: 0, throughId: due!.id }, { lastTry: false, heartbeat: () => undefined });
    expect(counts).to.deep.include({ sent: 1 });
    // Its Schedule never fires here: turned off, so the reconciler leaves nothing to run.
    await row.update({ enabled: false });
    return { automationId: row.id, memberId: member.id };
  }

  describe('the list: paging', () => {
    let account: TestAccount;
    let made: string[];
    before(async () => {
      account = await newAccount(stack.models, 'pro');
      const { ecard } = await catalog(account);
      made = [];
      for (let i = 0; i < 5; i++) made.push((await shareCard(stack.url, account.liveKey, ecard.id)).sendId);
    });

    it('pages of perPage, newest first, with meta { page, perPage, total, totalPages }', async () => {
      const newest = [...made].reverse();
      const first = await list('perPage=2', account.liveKey);
      expect(ids(first.sends)).to.deep.equal(newest.slice(0, 2));
      expect(first.meta).to.deep.equal({ page: 1, perPage: 2, total: 5, totalPages: 3 });
      const last = await list('perPage=2&page=3', account.liveKey);
      expect(ids(last.sends)).to.deep.equal(newest.slice(4));
      expect(last.meta).to.deep.equal({ page: 3, perPage: 2, total: 5, totalPages: 3 });
      const beyond = await list('perPage=2&page=4', account.liveKey);
      expect(beyond.sends).to.deep.equal([]);
    });

    it('perPage defaults to 20', async () => {
      const { sends, meta } = await list('', account.liveKey);
      expect(sends).to.have.length(5);
      expect(meta).to.deep.equal({ page: 1, perPage: 20, total: 5, totalPages: 1 });
    });
  });

  describe('refusals', () => {
    let account: TestAccount;
    let other: TestAccount;
    let theirSend: string;
    let theirs: { widget: number; ecard: number; campaign: number; automation: number };
    before(async () => {
      account = await newAccount(stack.models, 'pro');
      other = await newAccount(stack.models, 'pro');
      const { widget, ecard } = await catalog(other);
      theirSend = (await shareCard(stack.url, other.liveKey, ecard.id)).sendId;
      const campaign = await call(stack.url, 'POST', '/v2/api/campaign/save', { key: other.liveKey, body: { campaign: { campaign_name: 'Theirs' } } });
      const automation = await insertAutomation(stack.models, other.accountId, 'UTC', ecard.id, { enabled: false });
      theirs = { widget: widget.id, ecard: ecard.id, campaign: (expectSuccess(campaign) as Json).id as number, automation: automation.id };
    });

    it('perPage over 100 is 400; 100 is fine', async () => {
      expectFailure(await api('GET', `${SENDS}?perPage=101`, undefined, account.liveKey), 400, 'invalid_parameter');
      expectFailure(await api('GET', `${SENDS}?page=0`, undefined, account.liveKey), 400, 'invalid_parameter');
      expect((await list('perPage=100', account.liveKey)).meta).to.deep.include({ perPage: 100 });
    });

    it('a bad date is 400', async () => {
      for (const bad of ['yesterday', '2026-02-30', '2026-13-01', '2026-01-05T10:00:00', '05/01/2026']) {
        const messages = expectFailure(await api('GET', `${SENDS}?dateFrom=${encodeURIComponent(bad)}`, undefined, account.liveKey), 400, 'invalid_parameter');
        expect(messages.join(' '), bad).to.match(/dateFrom/);
      }
      expectFailure(await api('GET', `${SENDS}?dateTo=soon`, undefined, account.liveKey), 400, 'invalid_parameter');
    });

    it('a bad status, origin, id or address is 400', async () => {
      expectFailure(await api('GET', `${SENDS}?status=delivered`, undefined, account.liveKey), 400, 'invalid_parameter');
      expectFailure(await api('GET', `${SENDS}?origin=api`, undefined, account.liveKey), 400, 'invalid_parameter');
      expectFailure(await api('GET', `${SENDS}?widgetId=abc`, undefined, account.liveKey), 400, 'invalid_parameter');
      expectFailure(await api('GET', `${SENDS}?recipientEmail=not-an-address`, undefined, account.liveKey), 400, 'invalid_parameter');
      expectFailure(await api('GET', `${SENDS}/not-a-send-id`, undefined, account.liveKey), 400, 'invalid_parameter');
    });

    it('another account’s send is 404, as an unknown one', async () => {
      expectFailure(await api('GET', `${SENDS}/${theirSend}`, undefined, account.liveKey), 404, 'not_found');
      expectFailure(await api('GET', `${SENDS}/${crypto.randomUUID()}`, undefined, account.liveKey), 404, 'not_found');
      expect((await one(theirSend, other.liveKey)).sendId).to.equal(theirSend);
    });

    it('another account’s widget, eCard, campaign or automation as a filter is 404', async () => {
      for (const query of [`widgetId=${theirs.widget}`, `ecardId=${theirs.ecard}`, `campaign_id=${theirs.campaign}`, `automation_id=${theirs.automation}`]) {
        expectFailure(await api('GET', `${SENDS}?${query}`, undefined, account.liveKey), 404, 'not_found');
      }
    });

    it('a key without sends: view is 403 on both; sends: view is enough', async () => {
      const { ecard } = await catalog(account);
      const mine = (await shareCard(stack.url, account.liveKey, ecard.id)).sendId;
      const without = await newKey(stack.models, account.accountId, { ecards: 'manage', directory: 'manage' });
      expectFailure(await api('GET', SENDS, undefined, without.key), 403, 'key_out_of_scope');
      expectFailure(await api('GET', `${SENDS}/${mine}`, undefined, without.key), 403, 'key_out_of_scope');
      const reader = await newKey(stack.models, account.accountId, { sends: 'view' });
      expect(ids((await list('', reader.key)).sends)).to.deep.equal([mine]);
      expect((await one(mine, reader.key)).sendId).to.equal(mine);
    });
  });

  describe('directory members are masked without directory: view', () => {
    let account: TestAccount;
    let at: string;
    let campaignId: number;
    let automationId: number;
    let single: string;
    before(async () => {
      account = await newAccount(stack.models, 'pro');
      at = domain();
      const { ecard } = await catalog(account);
      const { ok } = apiClient(stack, account.liveKey);
      const member = await ok<{ member: { id: number } }>('POST', '/pub/team-member-actions/upsert', { email: `mia@${at}`, first_name: 'Mia', last_name: 'Member' });
      campaignId = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Mixed', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
      await ok('POST', '/campaign/saveCampaignEcards', { campaignid: campaignId, ecardIds: [ecard.id] });
      await ok('POST', '/campaign/saveRecipients', { campaignid: campaignId, directoryMemberIds: [member.member.id], csvRecipients: [{ email: `cory@${at}`, name: 'Cory Csv' }] });
      await ok('POST', '/campaign/send', { campaignid: campaignId });
      await eventually(() => stack.models.Campaign.findByPk(campaignId), (c) => c?.status === 'sent', 60_000, 100);
      automationId = (await automationSend(account, ecard.id, `abe@${at}`)).automationId;
      // A single send to a member's address: not a directory recipient (send-ecard takes addresses).
      single = (await emailSend(account, ecard.id, [`mia@${at}`])).sendId;
    });

    /** Each send's recipients as [name, email], by origin and then address order. */
    async function shown(key: string) {
      const { sends } = await list('', key);
      return {
        campaign: sends.filter((s) => s.origin === 'campaign').flatMap((s) => s.recipients.map((r) => [r.name, r.email])).sort((x, y) => String(x[1] ?? x[0]).localeCompare(String(y[1] ?? y[0]))),
        automation: sends.filter((s) => s.origin === 'automation').flatMap((s) => s.recipients.map((r) => [r.name, r.email])),
        single: sends.filter((s) => s.origin === 'single').flatMap((s) => s.recipients.map((r) => [r.name, r.email])),
        statuses: sends.flatMap((s) => s.recipients.map((r) => r.status)),
      };
    }

    it('without directory: view, a campaign’s member and an automation’s member have null name and email; CSV rows and single sends are shown', async () => {
      const reader = await newKey(stack.models, account.accountId, { sends: 'view' });
      const seen = await shown(reader.key);
      expect(seen.campaign).to.deep.include.members([[null, null], ['Cory Csv', `cory@${at}`]]);
      expect(seen.campaign).to.have.length(2);
      expect(seen.automation).to.deep.equal([[null, null]]);
      expect(seen.single).to.deep.equal([['Reader 1', `mia@${at}`]]);
      // The rest of a masked recipient stays.
      expect(seen.statuses).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
      const text = JSON.stringify((await list(`campaign_id=${campaignId}`, reader.key)).sends);
      expect(text).not.to.include(`mia@${at}`).and.not.to.include('Mia Member');
    });

    it('the one-send route masks the same way', async () => {
      const reader = await newKey(stack.models, account.accountId, { sends: 'view' });
      const sendId = (await list(`automation_id=${automationId}`, account.liveKey)).sends[0]!.sendId;
      expect((await one(sendId, reader.key)).recipients[0]).to.deep.include({ name: null, email: null, status: 'sent' });
      expect((await one(sendId, account.liveKey)).recipients[0]).to.deep.include({ name: 'Dana Member', email: `abe@${at}` });
      expect((await one(single, reader.key)).recipients[0]).to.deep.include({ email: `mia@${at}` });
    });

    it('with directory: view (or full access) the members’ names and emails are shown', async () => {
      const both = await newKey(stack.models, account.accountId, { sends: 'view', directory: 'view' });
      for (const key of [both.key, account.liveKey]) {
        const seen = await shown(key);
        expect(seen.campaign).to.deep.include.members([['Mia Member', `mia@${at}`], ['Cory Csv', `cory@${at}`]]);
        expect(seen.automation).to.deep.equal([['Dana Member', `abe@${at}`]]);
      }
    });
  });
});
