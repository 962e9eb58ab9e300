import { expect } from 'chai';
import { writeTransaction } from '../../lib/db.ts';
import { acceptSend } from '../../services/sends/accept/accept.ts';
import { reserveQuota } from '../../services/sends/accept/quota.ts';
import { newAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// The accept writes its rows by written-out INSERTs and reads what it checks in one statement (docs/performance.md,
// "Accepts, round two"): what it answers is what the rows hold, read back through the models, to the millisecond.
describe('an accept\'s rows, written out', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  it('the send, its recipients, its event, its key and its design read back as the accept answered them', async () => {
    const { models, services } = stack;
    const created = await newAccount(models, 'pro');
    const account = (await models.Account.findByPk(created.accountId))!;
    const widget = await insertWidget(models, account.id);
    const ecard = await insertEcard(models, account.id, widget.id);
    const sendAt = new Date(Date.now() + 3_600_123);
    const { send, created: made } = await acceptSend(services, account, {
      ecardId: ecard.id, senderEmail: 'Sam@Example.com', senderName: 'Sam "O\'Brien" \\ Sender', recipientNames: ['Rita', 'Röb'], recipientEmails: ['rita@example.com', 'ROB@example.com'],
      sendAt, share: false, widgetId: widget.vanity_id, personalMessage: '<p>Hi\nthere</p>', locale: 'de', mergeTags: { team: 'Ops 🎉' }, overrideProps: undefined,
      idempotencyKey: `rows-${Date.now()}`, requestHash: 'a'.repeat(64), notifyOnOpen: true,
    });
    expect(made).to.equal(true);
    const row = (await models.Send.findByPk(send.id))!;
    const answered = send.get({ plain: true }) as Record<string, unknown>;
    const stored = row.get({ plain: true }) as Record<string, unknown>;
    // Every value the accept's instance holds is the row's (the starter may have marked the workflow started since).
    for (const [key, value] of Object.entries(answered)) if (key !== 'workflow_started') expect(stored[key], key).to.deep.equal(value);
    expect(stored).to.deep.include({
      mode: 'schedule', status: 'scheduled', sandbox: false, sender_email: 'sam@example.com', sender_name: 'Sam "O\'Brien" \\ Sender', locale: 'de', notify_on_open: true,
      merge_tags: JSON.stringify({ team: 'Ops 🎉' }), emails_sent: 0, quota_count: 2, origin: 'single', opened_at: null, origin_id: null, gift_product_id: null, gift_reserved_cents: 0,
    });
    expect((stored.send_at as Date).getTime()).to.equal(sendAt.getTime());
    expect((stored.created_at as Date).getTime()).to.equal((stored.updated_at as Date).getTime());
    const recipients = await models.SendRecipient.findAll({ where: { send_id: send.id }, order: [['position', 'ASC']] });
    expect(recipients.map((r) => [r.position, r.recipient_name, r.recipient_email, r.status, r.thanks_count, r.rendered_html])).to.deep.equal([
      [1, 'Rita', 'rita@example.com', 'pending', 0, null],
      [2, 'Röb', 'rob@example.com', 'pending', 0, null],
    ]);
    expect(recipients.every((r) => /^[A-Za-z0-9_-]+$/.test(r.page_id ?? ''))).to.equal(true);
    const [event] = await models.OutboxEvent.findAll({ where: { account_id: account.id, event_id: send.send_id } });
    expect(event).to.deep.include({ event_type: 'ecard_shared', source: 'api', member_id: null, redact_after_delivery: false, redacted_at: null });
    expect((JSON.parse(event!.payload) as Array<{ recipient_email: string }>).map((e) => e.recipient_email)).to.deep.equal(['rita@example.com', 'rob@example.com']);
    const key = (await models.IdempotencyKey.findOne({ where: { account_id: account.id, send_id: send.id } }))!;
    expect(key.request_hash).to.equal('a'.repeat(64));
    expect(await models.SendDesignRef.count({ where: { send_id: send.id } })).to.equal(1);
    // A second send of the same design refers to the same stored design (known to the process: no read).
    const again = await acceptSend(services, account, {
      ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientNames: ['Rita'], recipientEmails: ['rita@example.com'],
      sendAt, share: false, widgetId: undefined, personalMessage: '<p>Hi\nthere</p>', locale: 'de', mergeTags: { team: 'Ops 🎉' }, overrideProps: undefined,
      idempotencyKey: undefined, requestHash: 'b'.repeat(64), notifyOnOpen: true,
    });
    const refs = await models.SendDesignRef.findAll({ where: { send_id: [send.id, again.send.id] } });
    expect(new Set(refs.map((r) => r.design_id)).size).to.equal(1);
  });

  it('reserveQuota in one statement: within the limit it counts, over it nothing changes (nor is a missing row made)', async () => {
    const { models } = stack;
    const { accountId } = await newAccount(models, 'pro');
    const reserve = (month: string, count: number, limit: number) => writeTransaction(models.sequelize, (t) => reserveQuota({ models }, accountId, month, count, limit, t));
    const used = async (month: string) => (await models.QuotaUsage.findOne({ where: { account_id: accountId, month } }))?.used;
    expect(await reserve('2030-01', 5, 4)).to.equal(false);
    expect(await used('2030-01')).to.equal(undefined);
    expect(await reserve('2030-02', 4, 4)).to.equal(true);
    expect(await used('2030-02')).to.equal(4);
    expect(await reserve('2030-02', 1, 4)).to.equal(false);
    expect(await used('2030-02')).to.equal(4);
    expect(await reserve('2030-01', 3, 4)).to.equal(true);
    expect(await reserve('2030-01', 1, 4)).to.equal(true);
    expect(await reserve('2030-01', 1, 4)).to.equal(false);
    expect(await used('2030-01')).to.equal(4);
  });
});
