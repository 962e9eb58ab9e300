import { expect } from 'chai';
import { campaignWorkflowId, wakeSignal } from '../../workflows/campaign/contract.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testClockStack, type ClockStack } from '../helpers/clock.ts';
import { seedMembers } from '../helpers/directory.ts';
import { eventually } from '../helpers/eventually.ts';
import { maybeRecordHistory } from '../helpers/histories.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testClient } from '../helpers/temporal.ts';

type Json = Record<string, unknown>;
const DAY = 86_400_000;
const HOUR = 3_600_000;

// A campaign "in the recipient's zone": the service clock (TEST_CLOCK) is moved to two seconds before each wave and
// the workflow woken, so each wave goes out on a real Temporal timer of whole seconds.
describe('campaigns in each recipient\'s zone (waves) and quiet hours', function () {
  this.timeout(120_000);
  let stack: ClockStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let domain: string;
  let counter = 0;

  before(async () => {
    stack = await testClockStack();
    smtp = await testSmtpServer();
  });
  after(() => stack.stop());
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    domain = `w${process.pid}-${++counter}.example.com`;
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Hello' });
    await ecard.update({ email_subject: 'Hello {{first_name}} ({{timezone}})' });
    ecardId = ecard.id;
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);
  const findOne = (id: number) => ok('GET', `/campaign/findOne/id/${id}`);
  const mailsTo = (local: string) => smtp.messages.filter((m) => m.to[0] === `${local}@${domain}`);
  const ours = () => smtp.messages.filter((m) => m.to[0]?.endsWith(`@${domain}`));
  const serviceNow = async () => (await stack.services.clock.read()).getTime();
  /** Moves the service clock to `seconds` before `at`, then wakes the campaign's workflow. */
  const approach = async (id: number, at: string, seconds = 2) => {
    const ms = new Date(at).getTime() - seconds * 1000 - (await serviceNow());
    if (ms > 0) await stack.advance(ms);
    await stack.services.clock.read();
    await (await testClient()).workflow.getHandle(campaignWorkflowId(account.accountId, id)).signal(wakeSignal);
  };
  /** How an instant reads on the wall clock in a zone, YYYY-MM-DDTHH:mm (Intl, independent of the planner). */
  const wallIn = (zone: string, iso: string) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .format(new Date(iso))
      .replace(' ', 'T');
  /** A wall-clock date `days` from the service clock's today (UTC), as YYYY-MM-DD. */
  const dayAhead = async (days: number) => new Date((await serviceNow()) + days * DAY).toISOString().slice(0, 10);
  const draftWith = async (recipients: { members?: Array<[string, string | null]>; csv?: Json[] }) => {
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Local 9:00', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
    const members = recipients.members ?? [];
    await seedMembers(stack.models, account.accountId, members.length, { domain });
    const rows = await stack.models.TeamMember.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
    for (const [i, [local, zone]] of members.entries()) await rows[i]!.update({ email: `${local}@${domain}`, timezone: zone });
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, directoryMemberIds: rows.map((m) => m.id), csvRecipients: recipients.csv ?? [] });
    return id;
  };

  it('sends in three waves at 09:00 in Tokyo, Berlin and Denver; a recipient without a zone takes the account default', async () => {
    expectSuccess(await api('POST', '/account/settings', { default_timezone: 'Asia/Tokyo' }));
    const id = await draftWith({
      members: [['tokyo', 'Asia/Tokyo'], ['berlin', 'Europe/Berlin']],
      csv: [
        { email: `denver@${domain}`, first_name: 'Dee', merge_fields: { timezone: 'America/Denver' } },
        { email: `nozone@${domain}`, first_name: 'Noa' },
      ],
    });
    const day = await dayAhead(3);
    const scheduled = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${day}T09:00`, scheduled_timezone: 'recipient' });
    const waves = scheduled.waves as Array<{ timezone: string; send_at: string; recipients: number }>;
    expect(waves.map((w) => [w.timezone, w.recipients])).to.deep.equal([['Asia/Tokyo', 2], ['Europe/Berlin', 1], ['America/Denver', 1]]);
    for (const w of waves) expect(wallIn(w.timezone, w.send_at)).to.equal(`${day}T09:00`);
    const [tokyo, berlin, denver] = waves.map((w) => w.send_at) as [string, string, string];
    expect(scheduled).to.deep.include({ status: 'scheduled', scheduled_timezone: 'recipient', scheduled_at: tokyo, scheduled_at_local: `${day}T09:00:00.000` });
    expect((await findOne(id)).waves).to.deep.equal(waves);
    // Quota reserved per wave (all in one month here).
    expect((await stack.models.QuotaUsage.findAll({ where: { account_id: account.accountId } })).reduce((n, r) => n + r.used, 0)).to.equal(4);

    // Tokyo's 09:00 (and the recipient with no zone, on the default Tokyo): sending, nothing else yet.
    await approach(id, tokyo);
    await eventually(async () => ours().length, (n) => n >= 2, 30_000);
    expect(mailsTo('tokyo')).to.have.length(1);
    expect(mailsTo('nozone')).to.have.length(1);
    expect(mailsTo('nozone')[0]!.subject).to.equal('Hello Noa ()');
    const afterTokyo = await eventually(() => findOne(id), (c) => (c.counts as Json).sent === 2, 10_000);
    expect(afterTokyo.status).to.equal('sending');
    expect(afterTokyo.counts).to.deep.include({ sent: 2, pending: 2 });
    expect(ours()).to.have.length(2);

    await approach(id, berlin);
    await eventually(async () => mailsTo('berlin').length, (n) => n === 1, 30_000);
    const afterBerlin = await eventually(() => findOne(id), (c) => (c.counts as Json).sent === 3, 10_000);
    expect(afterBerlin.status).to.equal('sending');
    expect(mailsTo('denver')).to.have.length(0);

    await approach(id, denver);
    await eventually(async () => mailsTo('denver').length, (n) => n === 1, 30_000);
    // The CSV timezone column stays a merge field.
    expect(mailsTo('denver')[0]!.subject).to.equal('Hello Dee (America/Denver)');
    const done = await eventually(() => findOne(id), (c) => c.status === 'sent', 30_000);
    expect(done.counts).to.deep.include({ recipients: 4, sent: 4, pending: 0 });
    expect(ours()).to.have.length(4);
    expect(new Date(done.started_at as string).getTime()).to.be.at.least(new Date(tokyo).getTime());
    await maybeRecordHistory(await testClient(), campaignWorkflowId(account.accountId, id), 'campaign-waves-workflow');
  });

  it('sends a zone whose moment has already passed at once, and waits for the zones still ahead', async () => {
    const id = await draftWith({ members: [['tokyo', 'Asia/Tokyo'], ['denver', 'America/Denver']] });
    // An hour ago on Tokyo's wall clock: fifteen hours ahead in Denver.
    const now = await serviceNow();
    const wall = wallIn('Asia/Tokyo', new Date(now - HOUR).toISOString());
    const scheduled = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: wall, scheduled_timezone: 'recipient' });
    const [first, second] = scheduled.waves as Array<{ timezone: string; send_at: string }>;
    expect(first!.timezone).to.equal('Asia/Tokyo');
    expect(new Date(first!.send_at).getTime()).to.be.within(now - 1000, now + 10_000);
    expect(second!.timezone).to.equal('America/Denver');
    expect(wallIn('America/Denver', second!.send_at)).to.equal(wall);
    await eventually(async () => mailsTo('tokyo').length, (n) => n === 1, 30_000);
    const sending = await eventually(() => findOne(id), (c) => (c.counts as Json).sent === 1, 10_000);
    expect(sending.status).to.equal('sending');
    expect(mailsTo('denver')).to.have.length(0);
    await ok('POST', '/campaign/cancel', { campaignid: id });
  });

  it('refuses an offset or Z with "recipient" (400) and an unknown CSV zone (422), changing nothing', async () => {
    const id = await draftWith({ csv: [{ email: `bad@${domain}`, merge_fields: { timezone: 'Mars/Olympus' } }] });
    const day = await dayAhead(3);
    for (const scheduled_at of [`${day}T09:00+02:00`, `${day}T09:00:00Z`]) {
      const messages = expectFailure(await api('POST', '/campaign/schedule', { campaignid: id, scheduled_at, scheduled_timezone: 'recipient' }), 400, 'invalid_parameter');
      expect(messages.join(' ')).to.match(/without Z or an offset/);
    }
    const messages = expectFailure(await api('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${day}T09:00`, scheduled_timezone: 'recipient' }), 422, 'invalid_value');
    expect(messages.join(' ')).to.include(`bad@${domain}`);
    const campaign = await findOne(id);
    expect(campaign).to.deep.include({ status: 'draft', scheduled_at: null, waves: [] });
    expect(await stack.models.QuotaUsage.count({ where: { account_id: account.accountId } })).to.equal(0);
    // A moment passed in every zone is in the past (422), as for one zone.
    const past = new Date((await serviceNow()) - 2 * DAY).toISOString().slice(0, 16);
    await stack.models.CampaignRecipient.update({ merge_fields: null }, { where: { campaign_id: id } });
    expectFailure(await api('POST', '/campaign/schedule', { campaignid: id, scheduled_at: past, scheduled_timezone: 'recipient' }), 422, 'scheduled_at_past');
  });

  it('reserves quota per wave in its month; a reschedule recomputes the waves; unschedule gives everything back', async () => {
    const id = await draftWith({ members: [['tokyo', 'Asia/Tokyo'], ['berlin', 'Europe/Berlin'], ['denver', 'America/Denver']] });
    // 00:30 on the first of a month at least a day ahead everywhere: Tokyo's and Berlin's are still in the month
    // before in UTC, Denver's in that month. (A zone already past would start the campaign at once: no reschedule.)
    const now = new Date(await serviceNow());
    let next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    if (next.getTime() - 12 * HOUR < now.getTime() + DAY) next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
    const first = next.toISOString().slice(0, 10);
    const thisMonth = new Date(next.getTime() - DAY).toISOString().slice(0, 7);
    const nextMonth = first.slice(0, 7);
    const usage = async () =>
      Object.fromEntries((await stack.models.QuotaUsage.findAll({ where: { account_id: account.accountId } })).filter((r) => r.used > 0).map((r) => [r.month, r.used]));
    const scheduled = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${first}T00:30`, scheduled_timezone: 'recipient' });
    const denverWave = (scheduled.waves as Json[]).find((w) => w.timezone === 'America/Denver')!;
    expect(wallIn('America/Denver', denverWave.send_at as string)).to.equal(`${first}T00:30`);
    expect(await usage()).to.deep.equal({ [thisMonth]: 2, [nextMonth]: 1 });

    const day = await dayAhead(5);
    const moved = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${day}T12:00`, scheduled_timezone: 'recipient' });
    expect((moved.waves as Json[]).map((w) => [w.timezone, wallIn(w.timezone as string, w.send_at as string)])).to.deep.equal([
      ['Asia/Tokyo', `${day}T12:00`],
      ['Europe/Berlin', `${day}T12:00`],
      ['America/Denver', `${day}T12:00`],
    ]);
    expect(Object.values(await usage()).reduce((a, b) => a + b, 0)).to.equal(3);
    expect(await stack.models.CampaignWave.count({ where: { campaign_id: id } })).to.equal(3);

    const draft = await ok('POST', '/campaign/unschedule', { campaignid: id });
    expect(draft).to.deep.include({ status: 'draft', scheduled_timezone: null, scheduled_at_local: null, waves: [] });
    expect(await usage()).to.deep.equal({});
    expect(await stack.models.CampaignRecipient.count({ where: { campaign_id: id, wave_id: null } })).to.equal(3);

    // Denver's month is full: 403 naming that month, and nothing reserved in the month before either.
    await stack.models.QuotaUsage.bulkCreate([{ account_id: account.accountId, month: nextMonth, used: stack.config.emailsPerMonth.pro }], { updateOnDuplicate: ['used'] });
    const refused = await api('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${first}T00:30`, scheduled_timezone: 'recipient' });
    expect(expectFailure(refused, 403, 'wouldexceedlimit').join(' ')).to.include(nextMonth);
    expect(refused.body.month).to.equal(nextMonth);
    expect((await usage())[thisMonth]).to.equal(undefined);
    expect(await findOne(id)).to.deep.include({ status: 'draft', waves: [] });
  });

  it('cancel between two waves: the later wave\'s recipients end canceled, its quota back, the workflow done', async () => {
    const id = await draftWith({ members: [['tokyo', 'Asia/Tokyo'], ['denver', 'America/Denver']] });
    const day = await dayAhead(3);
    const scheduled = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${day}T09:00`, scheduled_timezone: 'recipient' });
    const [tokyo, denver] = (scheduled.waves as Array<{ send_at: string }>).map((w) => w.send_at) as [string, string];
    await approach(id, tokyo);
    await eventually(() => findOne(id), (c) => (c.counts as Json).sent === 1, 30_000);
    const used = async () => (await stack.models.QuotaUsage.findAll({ where: { account_id: account.accountId } })).reduce((n, r) => n + r.used, 0);
    expect(await used()).to.equal(2);
    const canceled = await ok('POST', '/campaign/cancel', { campaignid: id });
    expect(canceled).to.deep.include({ status: 'canceled' });
    expect(canceled.counts).to.deep.include({ sent: 1, canceled: 1, pending: 0 });
    expect(await used()).to.equal(1);
    const handle = (await testClient()).workflow.getHandle(campaignWorkflowId(account.accountId, id));
    expect(await handle.result()).to.deep.include({ status: 'canceled' });
    await approach(id, denver, -1).catch(() => undefined); // the workflow has ended: the wake finds nothing to wake
    expect(mailsTo('denver')).to.have.length(0);
  });

  it('quiet hours hold a recipient-zone wave until they end, then send it', async () => {
    expectSuccess(await api('POST', '/account/settings', { quiet_hours: { start: '22:00', end: '07:00' } }));
    const id = await draftWith({ members: [['berlin', 'Europe/Berlin']] });
    const day = await dayAhead(3);
    const scheduled = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: `${day}T23:00`, scheduled_timezone: 'recipient' });
    const [wave] = scheduled.waves as Array<{ timezone: string; send_at: string; recipients: number }>;
    const morning = wave!.send_at;
    expect(scheduled.waves).to.have.length(1);
    expect(wave).to.deep.include({ timezone: 'Europe/Berlin', recipients: 1 });
    expect(wallIn('Europe/Berlin', morning)).to.equal(`${new Date(new Date(`${day}T12:00:00Z`).getTime() + DAY).toISOString().slice(0, 10)}T07:00`);
    // 23:00 in Berlin (eight hours before) passes: nothing goes out, still scheduled.
    await approach(id, new Date(new Date(morning).getTime() - 8 * HOUR).toISOString(), -60);
    await new Promise((r) => setTimeout(r, 3000));
    expect(mailsTo('berlin')).to.have.length(0);
    expect((await findOne(id)).status).to.equal('scheduled');
    await approach(id, morning);
    await eventually(async () => mailsTo('berlin').length, (n) => n === 1, 30_000);
    await eventually(() => findOne(id), (c) => c.status === 'sent', 30_000);
  });

  it('quiet hours split a campaign sent now: recipients in them go in a later wave, the others at once', async () => {
    // A window around the present hour in UTC; Kiritimati (UTC+14) is ten hours away from it.
    const now = new Date(await serviceNow());
    const hh = (h: number) => `${String(((h % 24) + 24) % 24).padStart(2, '0')}:00`;
    expectSuccess(await api('POST', '/account/settings', { default_timezone: 'UTC', quiet_hours: { start: hh(now.getUTCHours()), end: hh(now.getUTCHours() + 1) } }));
    const id = await draftWith({ members: [['quiet', 'UTC'], ['awake', 'Pacific/Kiritimati']] });
    const sending = await ok('POST', '/campaign/send', { campaignid: id });
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours() + 1)).toISOString();
    expect(sending.status).to.equal('sending');
    expect((sending.waves as Json[]).map((w) => [w.timezone, w.recipients])).to.deep.equal([['Pacific/Kiritimati', 1], ['UTC', 1]]);
    expect((sending.waves as Json[])[1]!.send_at).to.equal(end);
    await eventually(async () => mailsTo('awake').length, (n) => n === 1, 30_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(mailsTo('quiet')).to.have.length(0);
    expect((await findOne(id)).status).to.equal('sending');
    // A single send during the same quiet hours is not held.
    const single = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: 'hr@example.com', senderName: 'HR', recipientName: 'Night Owl', recipientEmail: `single@${domain}` },
    });
    expect(single.status).to.equal(200);
    await eventually(async () => mailsTo('single').length, (n) => n === 1, 30_000);
    expect(mailsTo('quiet')).to.have.length(0);
    await approach(id, end);
    await eventually(async () => mailsTo('quiet').length, (n) => n === 1, 30_000);
    await eventually(() => findOne(id), (c) => c.status === 'sent', 30_000);
  });

  it('a campaign with neither "recipient" nor quiet hours that hold anyone back has no waves', async () => {
    const id = await draftWith({ members: [['one', 'Asia/Tokyo']] });
    const at = new Date((await serviceNow()) + HOUR).toISOString().slice(0, 19) + 'Z';
    const scheduled = await ok('POST', '/campaign/schedule', { campaignid: id, scheduled_at: at, scheduled_timezone: 'UTC' });
    expect(scheduled).to.deep.include({ status: 'scheduled', waves: [] });
    expect(await stack.models.CampaignWave.count({ where: { campaign_id: id } })).to.equal(0);
    expect((await ok('POST', '/campaign/cancel', { campaignid: id })).status).to.equal('canceled');
  });
});
