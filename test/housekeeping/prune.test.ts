import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { pruneExpired } from '../../services/housekeeping/prune.ts';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { ownerUser } from '../helpers/console.ts';
import { testConfig, testModels } from '../helpers/stack.ts';

describe('the daily prune pass', function () {
  this.timeout(60_000);
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const now = new Date();

  /** Sessions, sign-in slots and idempotency keys on both sides of their limits, then one prune pass. */
  const pruneRun = async () => {
    const models = await testModels();
    const account = await newAccount(models);
    const owner = await ownerUser(models, account.accountId);
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const session = (createdAgo: number, seenAgo: number) =>
      models.ConsoleSession.create({
        id_hash: randomBytes(32).toString('hex'), public_id: randomBytes(12).toString('base64url'), owner_id: owner.id, account_id: account.accountId, csrf_secret: randomBytes(32).toString('hex'),
        created_at: ago(createdAgo), last_seen_at: ago(seenAgo),
      });
    const sessions = {
      fresh: await session(HOUR, MIN),
      nearlyIdle: await session(HOUR, 29 * MIN),
      idle: await session(HOUR, 31 * MIN),
      nearlyOld: await session(11 * HOUR, MIN),
      old: await session(13 * HOUR, MIN),
    };

    const slot = async (name: string, startedAgo: number) => {
      const slot_key = `pair:prune-test ${process.pid}-${name}-${account.accountId}`;
      await models.SignInSlot.create({ slot_key, attempts: 5, window_start: ago(startedAgo) });
      return slot_key;
    };
    // The longest window is an hour: a slot is pruned when its window ended more than a day ago.
    const slots = { current: await slot('current', 10 * MIN), endedToday: await slot('today', 20 * HOUR), endedLongAgo: await slot('long-ago', 26 * HOUR) };

    const widget = await insertWidget(models, account.accountId);
    const ecard = await insertEcard(models, account.accountId, widget.id);
    const key = async (name: string, madeAgo: number) => {
      const send = await insertSend(models, ecard, `${name}@example.com`, { workflowStarted: true });
      await models.IdempotencyKey.create({ account_id: account.accountId, idem_key: name, request_hash: 'a'.repeat(64), send_id: send.id, created_at: ago(madeAgo) });
      return name;
    };
    const keys = { recent: await key('recent', 23 * HOUR), expired: await key('expired', 25 * HOUR) };

    // The widget's rows: verification codes (kept an hour for the per-hour limits), the abuse log (30 days), send windows (a day).
    const verification = (name: string, madeAgo: number) =>
      models.WidgetVerification.create({
        account_id: account.accountId, widget_id: widget.id, email: `${name}-${account.accountId}@example.com`, ip_hash: 'b'.repeat(64), code_hash: 'c'.repeat(64),
        expires_at: new Date(ago(madeAgo).getTime() + 10 * MIN), created_at: ago(madeAgo),
      });
    const verifications = { codeExpiredButCounting: await verification('counting', 59 * MIN), pastTheHour: await verification('past', 61 * MIN) };
    const abuse = (madeAgo: number) => models.WidgetAbuseEvent.create({ account_id: account.accountId, widget_id: widget.id, kind: 'honeypot', created_at: ago(madeAgo) });
    const abuseRows = { recent: await abuse(29 * 24 * HOUR), old: await abuse(31 * 24 * HOUR) };
    const window = (startedAgo: number) => models.WidgetSendWindow.create({ widget_id: widget.id, ip_hash: 'd'.repeat(64), window_start: ago(startedAgo), emails: 3 });
    const windows = { today: await window(23 * HOUR), yesterday: await window(25 * HOUR) };

    const audit = (daysAgo: number) =>
      models.AuditEvent.create({ account_id: account.accountId, occurred_at: ago(daysAgo * 24 * HOUR), actor_type: 'system', actor_label: '', action: 'test.pruned', outcome: 'success', surface: 'worker', actor_user_id: null, actor_key_id: null, target_type: null, target_id: null, ip: null, user_agent: null, request_id: null, details: null });
    const auditRows = { kept: await audit(364), old: await audit(366) };

    const pruned = await pruneExpired({ models, now: () => now, config: await testConfig({ AUDIT_RETENTION_DAYS: '365' }) });
    return { models, account, widget, sessions, slots, keys, verifications, abuseRows, windows, auditRows, pruned };
  };
  let run: Awaited<ReturnType<typeof pruneRun>>;
  before(async () => {
    run = await pruneRun();
  });

  it('deletes exactly the expired sessions: idle over 30 minutes or made over 12 hours ago', async () => {
    const { models, account, sessions, pruned } = run;
    expect(pruned.sessions).to.be.at.least(2);
    const leftSessions = (await models.ConsoleSession.findAll({ where: { account_id: account.accountId } })).map((s) => s.id).sort();
    expect(leftSessions).to.deep.equal([sessions.fresh.id, sessions.nearlyIdle.id, sessions.nearlyOld.id].sort());
  });

  it('deletes exactly the sign-in slots whose window ended over a day ago', async () => {
    const { models, slots, pruned } = run;
    expect(pruned.signInSlots).to.be.at.least(1);
    const leftSlots = (await models.SignInSlot.findAll({ where: { slot_key: Object.values(slots) } })).map((s) => s.slot_key).sort();
    expect(leftSlots).to.deep.equal([slots.current, slots.endedToday].sort());
  });

  it('deletes exactly the idempotency keys made over 24 h ago', async () => {
    const { models, account, keys, pruned } = run;
    expect(pruned.idempotencyKeys).to.be.at.least(1);
    const leftKeys = (await models.IdempotencyKey.findAll({ where: { account_id: account.accountId } })).map((k) => k.idem_key);
    expect(leftKeys).to.deep.equal([keys.recent]);
  });

  it('deletes the widget’s verification rows an hour after they were made (not at the code’s 10-minute expiry: the limits count them)', async () => {
    const { models, widget, verifications, pruned } = run;
    expect(pruned.widgetVerifications).to.be.at.least(1);
    const left = (await models.WidgetVerification.findAll({ where: { widget_id: widget.id } })).map((v) => v.id);
    expect(left).to.deep.equal([verifications.codeExpiredButCounting.id]);
  });

  it('deletes the widget’s abuse rows after 30 days and its send windows after a day', async () => {
    const { models, widget, abuseRows, windows, pruned } = run;
    expect(pruned.widgetAbuseEvents).to.be.at.least(1);
    expect(pruned.widgetSendWindows).to.be.at.least(1);
    expect((await models.WidgetAbuseEvent.findAll({ where: { widget_id: widget.id } })).map((a) => a.id)).to.deep.equal([abuseRows.recent.id]);
    expect((await models.WidgetSendWindow.findAll({ where: { widget_id: widget.id } })).map((w) => w.window_start.getTime())).to.deep.equal([windows.today.window_start.getTime()]);
  });

  it('deletes exactly the audit rows older than AUDIT_RETENTION_DAYS', async () => {
    const { models, account, auditRows, pruned } = run;
    expect(pruned.auditEvents).to.be.at.least(1);
    const left = (await models.AuditEvent.findAll({ where: { account_id: account.accountId, action: 'test.pruned' } })).map((r) => r.id);
    expect(left).to.deep.equal([auditRows.kept.id]);
  });
});
