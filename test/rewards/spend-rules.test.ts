// Spend rules at their UTC boundaries with an injected clock: the counter's functions (services/rewards/spend.ts)
// on the suite's database, and send-ecard through an API instance with its own clock (extraApp), whose sends the
// suite's worker delivers. A day resets at 00:00 UTC, a week on Monday 00:00 UTC, a month on the 1st; with
// velocity_limits_enabled false nothing is refused and the use is still recorded; getRules' `used` is the face
// value of the period's orders. Also a gift automation's spend, reserved per card at claim.
import { expect } from 'chai';
import { writeTransaction } from '../../lib/db.ts';
import type { SpendPeriod } from '../../models/Gift.ts';
import { localDateOf } from '../../services/automations/local-date.ts';
import { periodStarts } from '../../services/rewards/periods.ts';
import { setRule, updateSettings } from '../../services/rewards/settings.ts';
import { releaseSpend, reserveSpend, spendUsed, type SpendRefusal } from '../../services/rewards/spend.ts';
import { AUTOMATION_FIRING_WORKFLOW } from '../../workflows/automation/contract.ts';
import type { AutomationFiringResult } from '../../workflows/automation/contract.ts';
import { call, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { firingZone, insertAutomation } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { extraApp, testStack, type ExtraApp, type TestStack } from '../helpers/stack.ts';

type Json = Record<string, unknown>;
type Rule = { period: SpendPeriod; limit: number; used: number; remaining: number; resets_at: string };

let counter = 0;

describe('rewards e2e: spend rules per day, week and month at their UTC boundaries', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;

  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
  });

  describe('the counter (reserveSpend, releaseSpend, spendUsed)', () => {
    const reserve = (cents: number, day: string, enforce = true) =>
      writeTransaction(stack.models.sequelize, (transaction) => reserveSpend(stack, account.accountId, { cents, day, enforce }, transaction));
    const release = (cents: number, day: string) => releaseSpend(stack, account.accountId, { cents, day });
    const used = (day: string) => spendUsed(stack, account.accountId, day);

    it('periods: UTC day, week from Monday, calendar month', () => {
      expect(periodStarts('2025-01-19')).to.deep.equal({ day: '2025-01-19', week: '2025-01-13', month: '2025-01-01' });
      expect(periodStarts('2025-01-20')).to.deep.equal({ day: '2025-01-20', week: '2025-01-20', month: '2025-01-01' });
      expect(periodStarts('2025-03-01')).to.deep.equal({ day: '2025-03-01', week: '2025-02-24', month: '2025-03-01' });
      expect(periodStarts('2024-02-29')).to.deep.equal({ day: '2024-02-29', week: '2024-02-26', month: '2024-02-01' });
    });

    it('a day limit refuses past it (the refusal names the rule and what is left) and starts again the next day', async () => {
      await setRule(stack, account.accountId, 'day', 5000);
      expect(await reserve(3000, '2025-01-15')).to.equal(null);
      expect(await reserve(3000, '2025-01-15')).to.deep.equal({ period: 'day', limitCents: 5000, remainingCents: 2000 } satisfies SpendRefusal);
      expect(await reserve(2000, '2025-01-15')).to.equal(null);
      expect(await reserve(1, '2025-01-15')).to.deep.include({ period: 'day', remainingCents: 0 });
      expect(await used('2025-01-15')).to.deep.equal({ day: 5000, week: 5000, month: 5000 });
      // The next UTC day: the day starts from 0, the week and month go on.
      expect(await reserve(5000, '2025-01-16')).to.equal(null);
      expect(await used('2025-01-16')).to.deep.equal({ day: 5000, week: 10_000, month: 10_000 });
    });

    it('a week limit holds from Monday to Sunday and starts again on Monday; a month limit until the 1st', async () => {
      await setRule(stack, account.accountId, 'week', 5000);
      await setRule(stack, account.accountId, 'month', 8000);
      expect(await reserve(3000, '2025-01-13')).to.equal(null); // Monday
      expect(await reserve(2500, '2025-01-19')).to.deep.include({ period: 'week', remainingCents: 2000 }); // Sunday, same week
      expect(await reserve(2000, '2025-01-19')).to.equal(null);
      expect(await reserve(3000, '2025-01-20')).to.equal(null); // Monday: a new week, the month goes on (8000)
      expect(await reserve(1, '2025-01-31')).to.deep.include({ period: 'month', limitCents: 8000, remainingCents: 0 });
      // Friday Jan 31 is in the week of Monday Jan 27: that week has used nothing yet.
      expect(await used('2025-01-31')).to.deep.equal({ day: 0, week: 0, month: 8000 });
      expect(await reserve(3000, '2025-02-01')).to.equal(null); // the 1st: a new month
      expect(await used('2025-02-01')).to.deep.equal({ day: 3000, week: 3000, month: 3000 });
    });

    it('a release gives back only in the periods still current', async () => {
      expect(await reserve(3000, '2025-01-31', false)).to.equal(null); // Friday
      expect(await reserve(2000, '2025-02-01', false)).to.equal(null); // Saturday: new day and month, same week
      await release(3000, '2025-01-31');
      // The day and the month of Jan 31 are over (nothing to give back there); the week is still current.
      expect(await used('2025-02-01')).to.deep.equal({ day: 2000, week: 2000, month: 2000 });
      await release(2000, '2025-02-01');
      expect(await used('2025-02-01')).to.deep.equal({ day: 0, week: 0, month: 0 });
      // Never below 0.
      await release(500, '2025-02-01');
      expect(await used('2025-02-01')).to.deep.equal({ day: 0, week: 0, month: 0 });
    });

    it('not enforced: rules refuse nothing and the use is recorded', async () => {
      await setRule(stack, account.accountId, 'day', 1000);
      expect(await reserve(5000, '2025-01-15', false)).to.equal(null);
      expect(await used('2025-01-15')).to.deep.equal({ day: 5000, week: 5000, month: 5000 });
      expect(await reserve(1, '2025-01-15')).to.deep.include({ period: 'day', remainingCents: 0 });
    });

    it('concurrent reservations never squeeze past a limit (and never deadlock): 10 × 10.00 against 50.00 → exactly 5', async () => {
      await setRule(stack, account.accountId, 'day', 5000);
      // The counter's row made in the race itself (the account's first gift).
      const first = await Promise.all(Array.from({ length: 10 }, () => reserve(1000, '2025-01-15')));
      expect(first.filter((r) => r === null)).to.have.length(5);
      expect(first.filter((r) => r !== null)).to.deep.equal(Array(5).fill({ period: 'day', limitCents: 5000, remainingCents: 0 }));
      expect(await used('2025-01-15')).to.deep.include({ day: 5000 });
      // The row there before the race (the usual case), on the next day.
      const next = await Promise.all(Array.from({ length: 10 }, () => reserve(1000, '2025-01-16')));
      expect(next.filter((r) => r === null)).to.have.length(5);
      expect(await used('2025-01-16')).to.deep.equal({ day: 5000, week: 10_000, month: 10_000 });
    });
  });

  describe('send-ecard through an API with its own clock', () => {
    let clock = new Date();
    let app: ExtraApp;
    let ecardId: number;
    before(async () => {
      app = await extraApp({ now: () => clock });
    });
    beforeEach(async () => {
      const widget = await insertWidget(stack.models, account.accountId);
      ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
      await seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme', 2500, 8);
    });

    /** A 25.00 gift sent by email now at `at` (UTC) to one new recipient. */
    const sendAt = (at: string): Promise<ApiResponse> => {
      clock = new Date(at);
      return call(app.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
        key: account.liveKey,
        body: {
          ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: `r${++counter}-${process.pid}@example.com`,
          giftCard: { product_id: 'manual:Acme:25', amount: 25 },
        },
      });
    };
    const sent = async (at: string) => {
      const res = await sendAt(at);
      expect(res.status, `${at}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
      const recipient = (await stack.models.SendRecipient.findOne({ where: { send_id: (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!.id } }))!;
      expect(smtp.to(recipient.recipient_email!)).to.have.length(1);
    };
    /** Flat 403 spendlimit, with nothing made: no new send, order or use. */
    const refused = async (at: string, period: SpendPeriod, remaining: number) => {
      const sends = await stack.models.Send.count({ where: { account_id: account.accountId } });
      const before = await spendUsed(stack, account.accountId, at.slice(0, 10));
      const res = await sendAt(at);
      expect(res.status, `${at}: ${JSON.stringify(res.body)}`).to.equal(403);
      expect(res.body).to.deep.include({ success: false, reason: 'spendlimit', code: 'spendlimit', period, needed: 25, remaining });
      expect(res.body).not.to.have.property('data');
      expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(sends);
      expect(await spendUsed(stack, account.accountId, at.slice(0, 10))).to.deep.equal(before);
    };
    const rulesAt = async (at: string) => {
      clock = new Date(at);
      return expectSuccess(await call(app.url, 'GET', '/v2/api/gift-card/getRules', { key: account.liveKey })) as { enforced: boolean; currency: string; rules: Rule[] };
    };
    /** The face value of the account's orders that count (not failed or refunded) whose spend day is in [from, to]. */
    const ordersWorth = async (from: string, to: string) =>
      (await stack.models.GiftOrder.findAll({ where: { account_id: account.accountId } }))
        .filter((o) => o.spend_day >= from && o.spend_day <= to && o.payment_status !== 'failed' && o.payment_status !== 'refunded')
        .reduce((n, o) => n + o.amount_cents / 100, 0);

    it('day: refused (flat 403 spendlimit) past the limit until 23:59:59.999 UTC, allowed again at 00:00', async () => {
      await setRule(stack, account.accountId, 'day', 5000);
      await sent('2025-01-15T00:00:00.000Z');
      await sent('2025-01-15T23:59:59.000Z');
      await refused('2025-01-15T23:59:59.999Z', 'day', 0);
      const full = await rulesAt('2025-01-15T23:59:59.999Z');
      expect(full).to.deep.equal({ enforced: true, currency: 'USD', rules: [{ period: 'day', limit: 50, used: 50, remaining: 0, resets_at: '2025-01-16T00:00:00.000Z' }] });
      expect(await ordersWorth('2025-01-15', '2025-01-15')).to.equal(50);
      await sent('2025-01-16T00:00:00.000Z');
      expect((await rulesAt('2025-01-16T00:00:00.000Z')).rules[0]).to.deep.include({ used: 25, remaining: 25, resets_at: '2025-01-17T00:00:00.000Z' });
      expect(await ordersWorth('2025-01-16', '2025-01-16')).to.equal(25);
      // Every order's spend day is the accept's (the injected clock's), not the worker's.
      expect((await stack.models.GiftOrder.findAll({ where: { account_id: account.accountId } })).map((o) => o.spend_day).sort()).to.deep.equal(['2025-01-15', '2025-01-15', '2025-01-16']);
    });

    it('week: refused on Sunday 23:59:59 UTC after Monday\'s sends, allowed again on Monday 00:00 UTC', async () => {
      await setRule(stack, account.accountId, 'week', 5000);
      await sent('2025-01-13T00:00:00.000Z'); // Monday
      await sent('2025-01-16T12:00:00.000Z');
      await refused('2025-01-19T23:59:59.999Z', 'week', 0); // Sunday
      expect((await rulesAt('2025-01-19T23:59:59.999Z')).rules).to.deep.equal([{ period: 'week', limit: 50, used: 50, remaining: 0, resets_at: '2025-01-20T00:00:00.000Z' }]);
      expect(await ordersWorth('2025-01-13', '2025-01-19')).to.equal(50);
      await sent('2025-01-20T00:00:00.000Z'); // Monday
      expect((await rulesAt('2025-01-20T00:00:00.000Z')).rules[0]).to.deep.include({ used: 25, resets_at: '2025-01-27T00:00:00.000Z' });
      expect(await ordersWorth('2025-01-20', '2025-01-26')).to.equal(25);
    });

    it('month: refused on the last day at 23:59:59 UTC, allowed again on the 1st at 00:00 UTC', async () => {
      await setRule(stack, account.accountId, 'month', 5000);
      await sent('2025-02-01T00:00:00.000Z');
      await sent('2025-02-14T08:00:00.000Z');
      await refused('2025-02-28T23:59:59.999Z', 'month', 0);
      expect((await rulesAt('2025-02-28T23:59:59.999Z')).rules).to.deep.equal([{ period: 'month', limit: 50, used: 50, remaining: 0, resets_at: '2025-03-01T00:00:00.000Z' }]);
      expect(await ordersWorth('2025-02-01', '2025-02-28')).to.equal(50);
      await sent('2025-03-01T00:00:00.000Z');
      expect((await rulesAt('2025-03-01T00:00:00.000Z')).rules[0]).to.deep.include({ used: 25, resets_at: '2025-04-01T00:00:00.000Z' });
    });

    it('all three rules: the first that does not fit refuses, with what it has left', async () => {
      await setRule(stack, account.accountId, 'day', 10_000);
      await setRule(stack, account.accountId, 'week', 7500);
      await setRule(stack, account.accountId, 'month', 20_000);
      await sent('2025-01-13T10:00:00.000Z');
      await sent('2025-01-14T10:00:00.000Z');
      await sent('2025-01-15T10:00:00.000Z');
      await refused('2025-01-15T11:00:00.000Z', 'week', 0);
      const view = await rulesAt('2025-01-15T11:00:00.000Z');
      expect(view.rules.map((r) => [r.period, r.used, r.remaining])).to.deep.equal([['day', 25, 75], ['week', 75, 0], ['month', 75, 125]]);
      expect(await ordersWorth('2025-01-13', '2025-01-19')).to.equal(75);
    });

    it('velocity_limits_enabled false: nothing refused, the use recorded (getRules used = the orders\' face values)', async () => {
      await updateSettings(stack.services, account.accountId, { velocity_limits_enabled: false });
      await setRule(stack, account.accountId, 'day', 2500);
      await sent('2025-01-15T09:00:00.000Z');
      await sent('2025-01-15T10:00:00.000Z');
      await sent('2025-01-15T11:00:00.000Z');
      const view = await rulesAt('2025-01-15T12:00:00.000Z');
      expect(view).to.deep.equal({ enforced: false, currency: 'USD', rules: [{ period: 'day', limit: 25, used: 75, remaining: 0, resets_at: '2025-01-16T00:00:00.000Z' }] });
      expect(await ordersWorth('2025-01-15', '2025-01-15')).to.equal(75);
      // Turned back on, the recorded use counts.
      await updateSettings(stack.services, account.accountId, { velocity_limits_enabled: true });
      await refused('2025-01-15T13:00:00.000Z', 'day', 0);
    });
  });

  it('a gift automation: each card\'s spend reserved at claim; the cards past the day limit fail spendlimit, no order, no email', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecardId = (await insertEcard(stack.models, account.accountId, widget.id)).id;
    await seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme', 2500, 3);
    await setRule(stack, account.accountId, 'day', 5000);
    const zone = firingZone();
    const d = localDateOf(new Date(), zone);
    const domain = `sr${process.pid}-${++counter}.example.com`;
    for (let i = 0; i < 3; i++) {
      await stack.models.TeamMember.create({
        account_id: account.accountId, email: `m${i}@${domain}`, employee_id: null, first_name: `First${i}`, last_name: `Last${i}`, job_position: null,
        date_of_birth: `1992-${d.slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
      });
    }
    const row = await insertAutomation(stack.models, account.accountId, zone, ecardId, { gift_card_enabled: true, gift_card: JSON.stringify({ product_id: 'manual:Acme:25', amount: 25 }) });
    let result: AutomationFiringResult;
    try {
      const handle = await stack.services.workflows!.client.workflow.start(AUTOMATION_FIRING_WORKFLOW, {
        taskQueue: stack.taskQueue,
        workflowId: `rewards-spend-firing-${row.id}-${crypto.randomUUID()}`,
        args: [{ accountId: account.accountId, automationId: row.id, scheduledAt: new Date().toISOString() }],
      });
      result = (await handle.result()) as AutomationFiringResult;
    } finally {
      await row.update({ enabled: false });
    }
    expect(result.counts).to.deep.include({ sent: 2, failed: 1 });
    const rows = await stack.models.AutomationSend.findAll({ where: { automation_id: row.id }, order: [['id', 'ASC']] });
    const failed = rows.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.reason)).to.deep.equal(['spendlimit']);
    const orders = await stack.models.GiftOrder.findAll({ where: { account_id: account.accountId } });
    expect(orders).to.have.length(2);
    expect(orders.map((o) => o.member_id)).not.to.include(failed[0]!.member_id);
    const failedMember = (await stack.models.TeamMember.findByPk(failed[0]!.member_id))!;
    expect(smtp.to(failedMember.email)).to.have.length(0);
    const rules = expectSuccess(await call(stack.url, 'GET', '/v2/api/gift-card/getRules', { key: account.liveKey })) as Json;
    expect((rules.rules as Rule[])[0]).to.deep.include({ period: 'day', used: 50, remaining: 0 });
  });
});
