import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import { reconcileAutomationSchedules } from '../../services/automations/reconcile.ts';
import { automationsUsageCheck } from '../../services/automations/usage.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';
import type { TokenPurpose } from '../../models/ConfirmationToken.ts';
import { automationScheduleId } from '../../workflows/automation/contract.ts';
import { START_DEADLINE_MS } from '../../workflows/shared/start.ts';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertSend, insertWidget } from '../helpers/catalog.ts';
import { ownerUser } from '../helpers/console.ts';
import { eventually } from '../helpers/eventually.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';

interface AutomationBody {
  id: number;
  enabled: boolean;
  selected_ecard_ids: number[];
  selected_member_ids: number[];
  milestone_rules: Array<{ ecard_ids?: number[] }>;
  notification_segment: { member_ids: number[]; department_ids: number[] };
  notification_ecards: Record<string, number[]>;
}

describe('automations: the usage check, deleting used eCards and widgets, erasure', function () {
  this.timeout(90_000);
  let stack: TestStack;
  let account: TestAccount;
  let client: Client;
  let smtp: SmtpTestServer;
  before(async () => {
    stack = await testStack();
    client = await testClient();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });

  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = async (fields: Record<string, unknown>) =>
    expectSuccess(
      await api('POST', '/automation/save', {
        automation: {
          automation_name: 'Birthdays',
          event_type: 'birthday',
          from_email: 'hr@example.com',
          timing_config: { send_time: '09:00', timezone: 'Europe/Berlin' },
          enabled: true,
          ...fields,
        },
      }),
    ) as AutomationBody;
  const findOne = async (id: number) => expectSuccess(await api('GET', `/automation/findOne/id/${id}`)) as AutomationBody;
  const token = async (purpose: TokenPurpose, id: number) =>
    (await issueToken(stack, { accountId: account.accountId, purpose, resourceId: String(id), now: new Date() })).token;
  const notices = async () =>
    (await stack.models.MailMessage.findAll({ where: { account_id: account.accountId, kind: 'automation_disabled' }, order: [['id', 'ASC']] })).map((m) => ({
      recipient: m.recipient,
      subject: m.subject,
    }));
  /**
   * A notice's text as its recipient got it (the mail queue clears the queued row's body once it is sent). Subjects
   * are compared without whitespace: the SMTP helper joins a folded encoded subject with a space in it.
   */
  const squeezed = (text: string) => text.replace(/\s+/g, '');
  const received = async (notice: { recipient: string; subject: string }) =>
    (await eventually(async () => smtp.to(notice.recipient).filter((m) => squeezed(m.subject) === squeezed(notice.subject)), (l) => l.length === 1, 10_000))[0]!.text;
  const ownerEmail = async () => (await ownerUser(stack.models, account.accountId)).email;
  const paused = async (id: number) => (await client.schedule.getHandle(automationScheduleId(account.accountId, id)).describe()).state.paused;
  /** A request and how long its answer took (its after-commit Schedule syncs run before the answer). */
  const timed = async (...args: Parameters<typeof api>) => {
    const started = performance.now();
    const res = await api(...args);
    return { res, ms: performance.now() - started };
  };
  /**
   * Whether a Schedule that an answer's after-commit sync pauses is paused. The sync waits at most START_DEADLINE_MS
   * on Temporal (a request never hangs on it) and leaves a lapse to the reconciler: only an answer that took that
   * long may have lapsed (a machine too loaded for Temporal's answer), and then the reconciler, run here, must pause
   * it. A quick answer with the Schedule still running is a failure.
   */
  const pausedAfter = async (answerMs: number, id: number) => {
    if (await paused(id)) return true;
    expect(answerMs, 'the Schedule runs on although the answer came within the sync deadline').to.be.at.least(START_DEADLINE_MS);
    await reconcileAutomationSchedules(stack.services);
    return paused(id);
  };

  it('is registered in the composition root: production wiring counts automations, no fake check loaded', () => {
    expect(stack.services.hooks.usage.map((c) => c.kind)).to.have.members(['sends', 'campaigns', 'automations']);
    expect(stack.services.hooks.usage).to.include(automationsUsageCheck);
  });

  it('counts each automation referring to an eCard (selected, milestone, notification) once, and a widget through its eCards', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const [a, b, c] = [await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id)];
    const other = await newAccount(stack.models);
    const x = await save({ selected_ecard_ids: [a.id, b.id] });
    await save({ event_type: 'rule_based', trigger_config: {}, milestone_rules: [{ after_years: 1, ecard_ids: [a.id] }] });
    expectSuccess(await api('POST', '/automation/saveNotificationEcards', { automation_id: x.id, notification_type: 'manager', ecardIds: [a.id, c.id] }));

    const ecards = await automationsUsageCheck.ecards(stack.models, account.accountId, [a.id, b.id, c.id]);
    expect(Object.fromEntries(ecards)).to.deep.equal({ [a.id]: 2, [b.id]: 1, [c.id]: 1 });
    expect(Object.fromEntries(await automationsUsageCheck.widgets(stack.models, account.accountId, [widget.id]))).to.deep.equal({ [widget.id]: 2 });
    // Scoped by the caller's account.
    expect((await automationsUsageCheck.ecards(stack.models, other.accountId, [a.id])).size).to.equal(0);
    expect((await automationsUsageCheck.widgets(stack.models, other.accountId, [widget.id])).size).to.equal(0);
  });

  /** Three eCards of one widget; the first used by four automations (selected, notification, a milestone, a disabled one). */
  const usedEcard = async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const [a, b, c] = [
      await insertEcard(stack.models, account.accountId, widget.id, { name: 'Balloons' }),
      await insertEcard(stack.models, account.accountId, widget.id),
      await insertEcard(stack.models, account.accountId, widget.id),
    ];
    const alone = await save({ automation_name: 'Only balloons', selected_ecard_ids: [a.id] });
    expectSuccess(await api('POST', '/automation/saveNotificationEcards', { automation_id: alone.id, notification_type: 'manager', ecardIds: [a.id, c.id] }));
    const withAnother = await save({ automation_name: 'Two cards', selected_ecard_ids: [a.id, b.id] });
    const rules = await save({ automation_name: 'Milestones', event_type: 'rule_based', trigger_config: {}, milestone_rules: [{ after_years: 1, ecard_ids: [b.id] }, { after_years: 2, ecard_ids: [a.id] }] });
    const off = await save({ automation_name: 'Off', selected_ecard_ids: [a.id], enabled: false });
    return { widget, a, b, c, alone, withAnother, rules, off };
  };

  describe('deleting an eCard that automations use', () => {
    // The steps of one flow, in order, on the account its first it got (the outer beforeEach makes one per it).
    let flow: { account: TestAccount; run: Awaited<ReturnType<typeof usedEcard>>; deleteMs?: number } | undefined;
    beforeEach(async () => {
      flow ??= { account, run: await usedEcard() };
      account = flow.account;
    });

    it('needs its token: without it the eCard and its widget are refused 403 with their impact, nothing changed', async () => {
      const { widget, a, alone } = flow!.run;
      expect(await paused(alone.id)).to.equal(false);

      const refused = await api('POST', '/ecard/deleteEcards', { ecardids: [a.id] });
      expectFailure(refused, 403, 'confirmation_required');
      expect(refused.body).to.deep.include({ requires_otp: true, otp_purpose: 'ecard_delete_in_use', impact: [{ id: a.id, campaigns: 0, automations: 4, sends: 0 }] });
      const widgetRefused = await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] });
      expectFailure(widgetRefused, 403, 'confirmation_required');
      expect(widgetRefused.body).to.deep.include({ otp_purpose: 'widget_delete', impact: [{ id: widget.id, ecards: 3, campaigns: 0, automations: 4, sends: 0 }] });
      expect(await stack.models.AutomationEcard.count({ where: { ecard_id: a.id } })).to.equal(5);
      expect(await notices()).to.deep.equal([]);
    });

    it('with its token the eCard leaves every list; an automation or a milestone rule left without eCards is disabled', async () => {
      const { a, b, c, alone, withAnother, rules, off } = flow!.run;
      const deleted = await timed('POST', '/ecard/deleteEcards', { ecardids: [a.id], otp_confirmation_token: await token('ecard_delete_in_use', a.id) });
      expectSuccess(deleted.res);
      flow!.deleteMs = deleted.ms;
      expect(await stack.models.AutomationEcard.count({ where: { account_id: account.accountId, ecard_id: a.id } })).to.equal(0);
      const [aloneAfter, withAnotherAfter, rulesAfter, offAfter] = [await findOne(alone.id), await findOne(withAnother.id), await findOne(rules.id), await findOne(off.id)];
      expect(aloneAfter).to.deep.include({ enabled: false, selected_ecard_ids: [] });
      expect(aloneAfter.notification_ecards.manager).to.deep.equal([c.id]);
      expect(withAnotherAfter).to.deep.include({ enabled: true, selected_ecard_ids: [b.id] });
      // A rule left without eCards (and none selected to fall back on): that occasion could not send.
      expect(rulesAfter.enabled).to.equal(false);
      expect(rulesAfter.milestone_rules.map((r) => r.ecard_ids)).to.deep.equal([[b.id], []]);
      expect(offAfter).to.deep.include({ enabled: false, selected_ecard_ids: [] });
    });

    it('the owner is emailed about each automation it disabled', async () => {
      const { a, alone } = flow!.run;
      const owner = await ownerEmail();
      const mail = await notices();
      expect(mail.map((m) => [m.recipient, m.subject])).to.have.deep.members([
        [owner, 'Automation "Only balloons" was disabled: its eCards were deleted'],
        [owner, 'Automation "Milestones" was disabled: its eCards were deleted'],
      ]);
      const aloneMail = mail.find((m) => m.subject.includes('Only balloons'))!;
      expect(await received(aloneMail)).to.include(`(id ${alone.id})`).and.include(`"Balloons" (id ${a.id})`).and.include('/automation/save').and.include('/automation/toggle');
    });

    it('the disabled automations’ Schedules are paused; the others run on', async () => {
      const { alone, withAnother, rules } = flow!.run;
      // After the commit, the disabled automations' Schedules are paused; the others run on.
      expect(await pausedAfter(flow!.deleteMs!, alone.id)).to.equal(true);
      expect(await pausedAfter(flow!.deleteMs!, rules.id)).to.equal(true);
      expect(await paused(withAnother.id)).to.equal(false);
    });
  });

  it('deleting a used widget with its token takes its eCards out of the automations the same way', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const [d, e] = [await insertEcard(stack.models, account.accountId, widget.id), await insertEcard(stack.models, account.accountId, widget.id)];
    const kept = await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id);
    const gone = await save({ automation_name: 'From the widget', selected_ecard_ids: [d.id, e.id] });
    expectSuccess(await api('POST', '/automation/saveNotificationEcards', { automation_id: gone.id, notification_type: 'segment', ecardIds: [e.id] }));
    const mixed = await save({ automation_name: 'Mixed', selected_ecard_ids: [e.id, kept.id] });

    const refused = await api('POST', '/widget/deleteWidgets', { widgetids: [widget.id] });
    expect(refused.body).to.deep.include({ impact: [{ id: widget.id, ecards: 2, campaigns: 0, automations: 2, sends: 0 }] });
    const deleted = await timed('POST', '/widget/deleteWidgets', { widgetids: [widget.id], otp_confirmation_token: await token('widget_delete', widget.id) });
    expectSuccess(deleted.res);

    const goneAfter = await findOne(gone.id);
    expect(goneAfter).to.deep.include({ enabled: false, selected_ecard_ids: [] });
    expect(goneAfter.notification_ecards.segment).to.deep.equal([]);
    expect(await findOne(mixed.id)).to.deep.include({ enabled: true, selected_ecard_ids: [kept.id] });
    expect((await notices()).map((m) => m.subject)).to.deep.equal(['Automation "From the widget" was disabled: its eCards were deleted']);
    expect(await pausedAfter(deleted.ms, gone.id)).to.equal(true);
  });

  /** Three members, automations naming one of them, rows to and about it; then that member is erased. */
  const eraseScenario = async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const card = await insertEcard(stack.models, account.accountId, widget.id);
    const member = async (email: string) =>
      (expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email, first_name: email.split('@')[0], date_of_birth: '1990-05-01' })) as { member: { id: number } }).member.id;
    const [erased, stays, third] = [await member('erased@example.com'), await member('stays@example.com'), await member('third@example.com')];
    const only = await save({ automation_name: 'Just one', selected_ecard_ids: [card.id], selected_member_ids: [erased] });
    const several = await save({
      automation_name: 'Team',
      selected_ecard_ids: [card.id],
      selected_member_ids: [erased, stays],
      notification_segment: { member_ids: [erased, third], department_ids: [] },
    });
    const offOne = await save({ automation_name: 'Off', selected_ecard_ids: [card.id], selected_member_ids: [erased], enabled: false });

    // A card to the erased member (its send prepared, not yet on its way), digests to and about it, and others' rows.
    const send = await insertSend(stack.models, card, 'erased@example.com', { workflowStarted: true });
    const row = (fields: Record<string, unknown>) =>
      stack.models.AutomationSend.create({ automation_id: several.id, account_id: account.accountId, member_id: stays, occurrence_key: '2026', firing_date: '2026-05-01', ...fields });
    await row({ automation_id: only.id, member_id: erased, send_id: send.id, occasion_date: '2026-05-01', quota_month: '2026-05' });
    await stack.models.QuotaUsage.create({ account_id: account.accountId, month: '2026-05', used: 3 });
    await row({ member_id: erased, occurrence_key: '2025', status: 'sent' });
    await row({ member_id: erased, kind: 'digest', occurrence_key: 'segment:2026-05-01', celebrants: JSON.stringify([{ member_id: third, event: 'birthday', occasion_date: '2026-05-01' }]) });
    const aboutErased = await row({
      member_id: third,
      kind: 'digest',
      occurrence_key: 'segment:2026-05-01',
      celebrants: JSON.stringify([
        { member_id: erased, event: 'birthday', occasion_date: '2026-05-01' },
        { member_id: stays, event: 'birthday', occasion_date: '2026-05-01' },
      ]),
    });
    const othersCard = await row({});

    const erasure = await timed('POST', '/pub/team-member-actions/delete', { email: 'erased@example.com' });
    expectSuccess(erasure.res);
    return { erased, stays, third, only, several, offOne, send, aboutErased, othersCard, erasureMs: erasure.ms };
  };

  describe('erasing a member that automations name', () => {
    let run: Awaited<ReturnType<typeof eraseScenario>>;
    let runAccount: TestAccount;
    before(async () => {
      runAccount = account = await newAccount(stack.models);
      run = await eraseScenario();
    });
    // The outer beforeEach makes a fresh account for every it; these check the one the scenario ran on.
    beforeEach(() => {
      account = runAccount;
    });

    it('removes its automation_sends rows and its entries in others’ digests', async () => {
      const { erased, stays, aboutErased, othersCard } = run;
      expect(await stack.models.AutomationSend.count({ where: { account_id: account.accountId, member_id: erased } })).to.equal(0);
      expect((await stack.models.AutomationSend.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] })).map((r) => r.id)).to.deep.equal([aboutErased.id, othersCard.id]);
      await aboutErased.reload();
      expect(JSON.parse(aboutErased.celebrants!)).to.deep.equal([{ member_id: stays, event: 'birthday', occasion_date: '2026-05-01' }]);
    });

    it('cancels and redacts the send made for it, giving its quota back', async () => {
      const { send } = run;
      // The send made for the erased member: redacted, and never sent now.
      const recipient = (await stack.models.SendRecipient.findOne({ where: { send_id: send.id } }))!;
      expect(recipient).to.deep.include({ recipient_email: null, recipient_name: '', status: 'canceled', rendered_html: null });
      expect((await send.reload()).status).to.equal('canceled');
      expect((await stack.models.QuotaUsage.findOne({ where: { account_id: account.accountId, month: '2026-05' } }))!.used).to.equal(2);
    });

    it('takes its id out of every automation’s members and segments; an automation for it alone is disabled', async () => {
      const { erased, stays, third, only, several, offOne } = run;
      const [onlyAfter, severalAfter, offAfter] = [await findOne(only.id), await findOne(several.id), await findOne(offOne.id)];
      expect(onlyAfter).to.deep.include({ enabled: false, selected_member_ids: [] });
      expect(severalAfter).to.deep.include({ enabled: true, selected_member_ids: [stays] });
      expect(severalAfter.notification_segment).to.deep.equal({ member_ids: [third], department_ids: [] });
      expect(offAfter).to.deep.include({ enabled: false, selected_member_ids: [] });
      for (const a of await stack.models.Automation.findAll({ where: { account_id: account.accountId } })) {
        expect(`${a.selected_member_ids} ${a.notification_segment}`).not.to.match(new RegExp(`\\b${erased}\\b`));
      }
    });

    it('an automation for it alone has its Schedule paused and its owner emailed; the others run on', async () => {
      const { only, several, erasureMs } = run;
      const mail = await notices();
      expect(mail.map((m) => [m.recipient, m.subject])).to.deep.equal([[await ownerEmail(), 'Automation "Just one" was disabled: the members it was for were erased']]);
      expect(await received(mail[0]!)).to.include('every active member').and.include('/automation/save');
      expect(await pausedAfter(erasureMs, only.id)).to.equal(true);
      expect(await paused(several.id)).to.equal(false);
    });
  });
});
