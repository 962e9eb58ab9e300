// The manual gift flow end to end with real parts (the suite's stack, SMTP server and database): codes uploaded with
// `cardsvc rewards add-codes` (and its service), a gift on send-ecard, a gift campaign and a gift automation, the claim
// link each email carries (GET shows no code, POST reveals the one assigned), the daily expiry, and the campaign
// refusals that leave nothing reserved.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { Op } from 'sequelize';
import { AUTOMATION_FIRING_WORKFLOW } from '../../workflows/automation/contract.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { localDateOf } from '../../services/automations/local-date.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { addCodes } from '../../services/rewards/codes.ts';
import { codeHmacs } from '../../services/rewards/crypto.ts';
import { expireGiftOrders } from '../../services/rewards/expiry.ts';
import { setRule, updateSettings } from '../../services/rewards/settings.ts';
import { spendUsed } from '../../services/rewards/spend.ts';
import { dayOf } from '../../services/rewards/periods.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { firingZone, insertAutomation } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { cardsvc } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { claimLinkIn } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { TEST_REWARDS_KEY, testConfig, testServices, testStack, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;

let counter = 0;

describe('rewards e2e: the manual flow (codes, a gift send, its claim link, expiry, campaigns, automations)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  let domain: string;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    domain = `mf${process.pid}-${++counter}.example.com`;
    const widget = await insertWidget(stack.models, account.accountId);
    ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);
  const send = (recipient: string, gift = { product_id: 'manual:Acme:25', amount: 25 }) =>
    api('POST', '/pub/ecard-actions/send-ecard', { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: recipient, giftCard: gift });
  /** `count` fresh codes uploaded with the add-codes service (each line `code`, some with a PIN). */
  const upload = async (count: number, brand = 'Acme', cents = 2500): Promise<string[]> => {
    const codes = Array.from({ length: count }, (_, i) => `MF-${process.pid}-${Date.now()}-${++counter}-${i}-QRST`);
    const result = await addCodes(stack.services, account.accountId, { brand, denominationCents: cents, text: codes.join('\n') });
    expect(result).to.deep.equal({ added: count, duplicates: 0, invalid_lines: [] });
    return codes;
  };
  /** Which uploaded code a gift_codes row holds (by its keyed hash). */
  const codeOfRow = (codes: string[], hmac: string) => codes.find((c) => codeHmacs(stack.services.dataKeys!, c)[0] === hmac);
  const orders = () => stack.models.GiftOrder.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] });
  const page = async (method: 'GET' | 'POST', link: string) => {
    const res = await fetch(link, { method, redirect: 'manual' });
    return { status: res.status, html: await res.text() };
  };
  const today = () => dayOf(new Date());
  const spent = async () => (await spendUsed(stack, account.accountId, today())).day;
  const campaignDraft = async (recipients: number, prefix: string) => {
    const created = await ok('POST', '/campaign/save', {
      campaign: { campaign_name: 'Gifts', from_name: 'HR', from_email: 'hr@example.com', gift_card_enabled: true, gift_card: { product_id: 'manual:Acme:25', amount: 25 } },
    });
    const id = created.id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
    const rows = Array.from({ length: recipients }, (_, i) => ({ email: `${prefix}${i}@${domain}`, name: `${prefix} ${i}` }));
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: rows });
    const { token } = await issueToken(stack, { accountId: account.accountId, purpose: 'gc_campaign_send', resourceId: String(id), now: new Date() });
    return { id, token, emails: rows.map((r) => r.email) };
  };

  // The steps of one flow, in order: each it goes on from where the one before it left.
  describe('codes added with cardsvc, a gift send and its email\'s claim link, then the expiry', () => {
    let codes: string[];
    let pin: string;
    let rita: string;
    let order: Awaited<ReturnType<typeof orders>>[number] | undefined;
    let assigned: string;
    let link: string;
    // The outer beforeEach makes a fresh account for every it; this flow keeps the one its first it got.
    let flow: { account: TestAccount; ecardId: number; domain: string } | undefined;
    beforeEach(() => {
      flow ??= { account, ecardId, domain };
      ({ account, ecardId, domain } = flow);
    });

    it('cardsvc rewards add-codes adds a file of code[,pin] lines to the inventory', async () => {
      // Claim links valid one day, so the expiry run below (a day ahead) is due for these orders only, not other tests'.
      await updateSettings(stack.services, account.accountId, { claim_expiry_days: 1 });
      // The codes come in with the operator's command, as a file of `code[,pin]` lines.
      codes = [0, 1, 2].map((i) => `MF-CLI-${process.pid}-${Date.now()}-${i}-QRST`);
      const file = join(tempDir(), 'codes.csv');
      pin = 'PIN-8642-QQ';
      writeFileSync(file, `${codes[0]},${pin}\n${codes[1]}\n${codes[2]}\n`);
      const added = await cardsvc(
        ['rewards', 'add-codes', '--account', String(account.accountId), '--brand', 'Acme', '--denomination', '25', '--file', file, '--json'],
        baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir(), REWARDS_ENCRYPTION_KEY: TEST_REWARDS_KEY }),
      );
      expect(added.code, added.stderr).to.equal(0);
      expect(JSON.parse(added.stdout)).to.deep.equal({ added: 3, duplicates: 0, invalid_lines: [] });
      expect(expectSuccess(await api('GET', '/gift-card/rewardInventory'))).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 3, assigned: 0 }]);
    });

    it('a gift send gives its order the pool\'s first free code, the one with the PIN', async () => {
      rita = `rita@${domain}`;
      const res = await send(rita);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
      [order] = await orders();
      expect(order!.get({ plain: true })).to.deep.include({ scope: 'widget', source: 'manual', payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'unclaimed', amount_cents: 2500, product_id: 'manual:Acme:25' });
      const codeRow = await stack.models.GiftCode.findOne({ where: { order_id: order!.id } });
      expect(codeRow, 'the code given to the order').not.to.equal(null);
      expect(order!.code_id).to.equal(codeRow!.id);
      // The pool's first free code (by upload order): the one with the PIN.
      assigned = codeOfRow(codes, codeRow!.code_hmac)!;
      expect(assigned).to.equal(codes[0]);
    });

    it('the email carries the claim link, never a code or PIN', async () => {
      // The email: the claim link, never a code.
      const [mail] = smtp.to(rita);
      link = claimLinkIn(mail!.text)!;
      expect(link, mail!.text).to.be.a('string');
      expect(link.startsWith(`${stack.config.publicBaseUrl}/g/`)).to.equal(true);
      expect(mail!.html).to.include(link);
      for (const c of codes) expect(mail!.raw).not.to.include(c);
      expect(mail!.raw).not.to.include(pin);
    });

    it('GET on the link (a mail scanner\'s prefetch) shows the gift without its code and changes nothing', async () => {
      // GET (a mail scanner's prefetch) shows the gift, no code, and changes nothing.
      const offer = await page('GET', link);
      expect(offer.status).to.equal(200);
      expect(offer.html).to.include('Acme').and.include('$25.00');
      for (const c of codes) expect(offer.html).not.to.include(c);
      expect(offer.html).not.to.include(pin);
      expect((await order!.reload()).claim_status).to.equal('unclaimed');
    });

    it('POST reveals exactly the assigned code and its PIN and claims the order, once', async () => {
      // POST reveals exactly the code assigned, and the order is claimed; a later POST shows it again, claimed once.
      const reveal = await page('POST', link);
      expect(reveal.status).to.equal(200);
      expect(reveal.html).to.include(assigned).and.include(pin);
      for (const c of codes.filter((c) => c !== assigned)) expect(reveal.html).not.to.include(c);
      await order!.reload();
      expect(order!.claim_status).to.equal('claimed');
      const claimedAt = order!.claimed_at!.getTime();
      expect((await page('POST', link)).html).to.include(assigned);
      expect((await order!.reload()).claimed_at!.getTime()).to.equal(claimedAt);
    });

    it('listOrders masks the code as **** and its last 4; the inventory shows it assigned', async () => {
      // The list masks the code as **** and its last 4; the inventory shows it assigned.
      const listed = expectSuccess(await api('GET', '/gift-card/listOrders')) as Json[];
      expect(listed).to.have.length(1);
      expect(listed[0]).to.deep.include({ claim_status: 'claimed', code_masked: `****${assigned.slice(-4)}`, recipient_email: rita, amount: 25 });
      expect(JSON.stringify(listed)).not.to.include(assigned);
      expect(expectSuccess(await api('GET', '/gift-card/rewardInventory'))).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 1 }]);
    });

    it('the expiry moves only an unclaimed order, whose claim link then answers 410', async () => {
      // A second gift nobody claims: the expiry, with its clock past both orders' expires_at, moves only that one.
      const otto = `otto@${domain}`;
      expect((await send(otto)).status).to.equal(200);
      const [, unclaimed] = await orders();
      expect(unclaimed!.claim_status).to.equal('unclaimed');
      const ottoLink = claimLinkIn(smtp.to(otto)[0]!.text)!;
      const due = new Date(Math.max(order!.expires_at!.getTime(), unclaimed!.expires_at!.getTime()) + 1000);
      expect(due.getTime() - Date.now()).to.be.within(86_400_000 - 60_000, 86_400_000 + 60_000);
      const clocked = await testServices(await testConfig(), { now: () => due });
      expect(await expireGiftOrders(clocked)).to.be.at.least(1);
      expect((await unclaimed!.reload()).claim_status).to.equal('expired');
      expect((await order!.reload()).claim_status).to.equal('claimed');
      const gone = await page('POST', ottoLink);
      expect(gone.status).to.equal(410);
      for (const c of codes) expect(gone.html).not.to.include(c);
      expect((expectSuccess(await api('GET', '/gift-card/listOrders?claim_status=expired')) as Json[]).map((o) => o.id)).to.deep.equal([unclaimed!.id]);
    });
  });

  it('a gift campaign of 10 recipients: 10 campaign orders fulfilled, 10 distinct claim links and codes, inventory 10 assigned', async () => {
    const codes = await upload(12);
    const campaign = await campaignDraft(10, 'gift');
    const sending = await ok('POST', '/campaign/send', { campaignid: campaign.id, gc_confirmation_token: campaign.token });
    expect(sending.status).to.equal('sending');
    // The whole campaign's spend is reserved when it leaves the draft.
    expect(await spent()).to.equal(10 * 2500);
    const done = await eventually(() => ok('GET', `/campaign/findOne/id/${campaign.id}`), (c) => c.status === 'sent', 45_000);
    expect(done.counts).to.deep.include({ recipients: 10, sent: 10, failed: 0 });

    const made = await orders();
    expect(made).to.have.length(10);
    for (const o of made) {
      expect(o.get({ plain: true })).to.deep.include({ scope: 'campaign', campaign_id: campaign.id, payment_status: 'paid', fulfillment_status: 'fulfilled', claim_status: 'unclaimed', amount_cents: 2500 });
      expect(o.order_key).to.match(new RegExp(`^campaign:${campaign.id}:\\d+$`));
    }
    expect(new Set(made.map((o) => o.recipient_email))).to.deep.equal(new Set(campaign.emails));
    expect(new Set(made.map((o) => o.code_id)).size).to.equal(10);
    const given = await stack.models.GiftCode.findAll({ where: { account_id: account.accountId, order_id: made.map((o) => o.id) } });
    expect(given).to.have.length(10);
    expect(new Set(given.map((g) => g.order_id)).size).to.equal(10);

    // Each recipient's one email carries its own claim link; each link reveals that recipient's code.
    const links = campaign.emails.map((email) => {
      const mails = smtp.to(email);
      expect(mails, email).to.have.length(1);
      return claimLinkIn(mails[0]!.text)!;
    });
    expect(new Set(links).size).to.equal(10);
    const revealed = new Set<string>();
    for (const [i, link] of links.entries()) {
      const html = (await page('POST', link)).html;
      const order = made.find((o) => o.recipient_email === campaign.emails[i])!;
      const code = codeOfRow(codes, given.find((g) => g.order_id === order.id)!.code_hmac)!;
      expect(html, campaign.emails[i]).to.include(code);
      revealed.add(code);
    }
    expect(revealed.size).to.equal(10);

    expect(expectSuccess(await api('GET', '/gift-card/rewardInventory'))).to.deep.equal([{ brand: 'Acme', denomination: 25, currency: 'USD', available: 2, assigned: 10 }]);
    const listed = expectSuccess(await api('GET', `/gift-card/listOrders?scope=campaign&campaign_id=${campaign.id}&perPage=50`)) as Json[];
    expect(listed).to.have.length(10);
    // The reservation became the orders' spend: the counter holds the 10 face values, the campaign nothing more.
    expect(await spent()).to.equal(10 * 2500);
    expect((await stack.models.Campaign.findByPk(campaign.id))!.gift_reserved_cents).to.equal(0);
  });

  it('a campaign with fewer codes than recipients is refused 422 insufficient_inventory, nothing reserved; with the codes added it goes', async () => {
    await upload(3);
    const campaign = await campaignDraft(5, 'short');
    const refused = await api('POST', '/campaign/send', { campaignid: campaign.id, gc_confirmation_token: campaign.token });
    expectFailure(refused, 422, 'insufficient_inventory');
    expect(refused.body).to.deep.include({ needed: 5, available: 3 });
    const scheduleRefused = await api('POST', '/campaign/schedule', {
      campaignid: campaign.id, scheduled_at: `${new Date(Date.now() + 3_600_000).toISOString().slice(0, 19)}Z`, scheduled_timezone: 'UTC', gc_confirmation_token: campaign.token,
    });
    expectFailure(scheduleRefused, 422, 'insufficient_inventory');
    const row = (await stack.models.Campaign.findByPk(campaign.id))!;
    expect(row.status).to.equal('draft');
    expect(row.gift_reserved_cents).to.equal(0);
    expect(row.quota_count).to.equal(0);
    expect(await spent()).to.equal(0);
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await stack.models.GiftCode.count({ where: { account_id: account.accountId, order_id: { [Op.ne]: null } } })).to.equal(0);
    expect((await stack.models.QuotaUsage.findAll({ where: { account_id: account.accountId } })).reduce((n, r) => n + r.used, 0)).to.equal(0);

    // The refusal spent nothing, not even the confirmation token: with two more codes the same token sends it.
    await upload(2);
    expect((await ok('POST', '/campaign/send', { campaignid: campaign.id, gc_confirmation_token: campaign.token })).status).to.equal('sending');
    const done = await eventually(() => ok('GET', `/campaign/findOne/id/${campaign.id}`), (c) => c.status === 'sent', 30_000);
    expect(done.counts).to.deep.include({ recipients: 5, sent: 5 });
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId, fulfillment_status: 'fulfilled' } })).to.equal(5);
  });

  it('a campaign over a spend rule is refused 403 spendlimit with needed and remaining; nothing reserved', async () => {
    await upload(5);
    await setRule(stack, account.accountId, 'day', 10_000);
    const campaign = await campaignDraft(5, 'over');
    const refused = await api('POST', '/campaign/send', { campaignid: campaign.id, gc_confirmation_token: campaign.token });
    expectFailure(refused, 403, 'spendlimit');
    expect(refused.body).to.deep.include({ needed: 125, remaining: 100, period: 'day' });
    const row = (await stack.models.Campaign.findByPk(campaign.id))!;
    expect(row.status).to.equal('draft');
    expect(row.gift_reserved_cents).to.equal(0);
    expect(await spent()).to.equal(0);
    expect(await stack.models.GiftOrder.count({ where: { account_id: account.accountId } })).to.equal(0);
    const rules = expectSuccess(await api('GET', '/gift-card/getRules')) as Json;
    expect(rules.rules).to.deep.equal([{ period: 'day', limit: 100, used: 0, remaining: 100, resets_at: (rules.rules as Json[])[0]!.resets_at }]);
  });

  it('a gift automation firing: one order per card, scope automation, each email with its claim link', async () => {
    const codes = await upload(3);
    const zone = firingZone();
    const d = localDateOf(new Date(), zone);
    const members = await Promise.all(
      [0, 1].map((i) =>
        stack.models.TeamMember.create({
          account_id: account.accountId, email: `m${i}@${domain}`, employee_id: null, first_name: `First${i}`, last_name: `Last${i}`, job_position: null,
          date_of_birth: `1992-${d.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
        }),
      ),
    );
    const row = await insertAutomation(stack.models, account.accountId, zone, ecardId, {
      gift_card_enabled: true,
      gift_card: JSON.stringify({ product_id: 'manual:Acme:25', amount: 25 }),
    });
    try {
      const handle = await stack.services.workflows!.client.workflow.start(AUTOMATION_FIRING_WORKFLOW, {
        taskQueue: stack.taskQueue,
        workflowId: `rewards-firing-${row.id}-${crypto.randomUUID()}`,
        args: [{ accountId: account.accountId, automationId: row.id, scheduledAt: new Date().toISOString() }],
      });
      const result = (await handle.result()) as AutomationFiringResult;
      expect(result).to.deep.include({ status: 'fired', firingDate: d });
      expect(result.counts).to.deep.include({ sent: 2, failed: 0 });
    } finally {
      // Disabled, so no reconciler makes it a Schedule later in the run.
      await row.update({ enabled: false });
    }
    const made = await orders();
    expect(made).to.have.length(2);
    const occurrence = d.slice(0, 4);
    expect(made.map((o) => o.order_key).sort()).to.deep.equal(members.map((m) => `automation:${row.id}:${m.id}:${occurrence}`).sort());
    for (const o of made) {
      expect(o.get({ plain: true })).to.deep.include({ scope: 'automation', automation_id: row.id, campaign_id: null, payment_status: 'paid', fulfillment_status: 'fulfilled' });
    }
    expect(new Set(made.map((o) => o.member_id))).to.deep.equal(new Set(members.map((m) => m.id)));
    expect(new Set(made.map((o) => o.code_id)).size).to.equal(2);
    const links = members.map((m) => {
      const mails = smtp.to(m.email);
      expect(mails, m.email).to.have.length(1);
      return claimLinkIn(mails[0]!.text)!;
    });
    expect(new Set(links).size).to.equal(2);
    const html = (await page('POST', links[0]!)).html;
    expect(codes.filter((c) => html.includes(c))).to.have.length(1);
    expect(await spent()).to.equal(2 * 2500);
  });
});
