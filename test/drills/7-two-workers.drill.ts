// Drill: two workers started at once on work that only their background passes pick up (sends whose start never
// happened, undrained events, a campaign whose wake never arrived, an automation without its Schedule, the gift-expiry
// Schedule): the sweepers, drainer, reconciler and expiry set-up act once between them.
import { expect } from 'chai';
import { GIFT_EXPIRY_SCHEDULE_ID } from '../../workflows/gift-expiry/contract.ts';
import { automationScheduleId } from '../../workflows/automation/contract.ts';
import { firingZone, insertAutomation } from '../helpers/automations.ts';
import { insertSend } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { expectPass, mailsTo, settled, startDrill, stopChildren } from './harness.ts';

describe('drill: two workers at once', function () {
  it('each unstarted send is emailed once, each event drained once and delivered (at least once, one attempt recorded), the campaign woken once, one Schedule each', async () => {
    const drill = await startDrill();
    const { models } = drill;
    const tenant = await drill.newTenant('two');
    const accountId = tenant.account.accountId;
    const domain = `drill-two-${process.pid}.example.com`;
    const { received, stop } = mailsTo(drill.smtp, domain);
    const ecard = (await models.Ecard.findByPk(tenant.ecardId))!;
    // Sends committed whose workflow start never happened: the "send starts" sweeper's work.
    for (let i = 0; i < 10; i++) await insertSend(models, ecard, `s${i}@${domain}`);
    // Member events waiting in the outbox (the API records them; only workers drain): the drainer's work.
    const memberPath = `${tenant.hookPath}-members`;
    await tenant.ok('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created', hookUrl: `${drill.receiver.url}${memberPath}` });
    for (let i = 0; i < 10; i++) await tenant.ok('POST', '/pub/team-member-actions/upsert', { email: `member${i}@${domain}`, first_name: `M${i}` });
    // A campaign sent (its workflow waits for a worker), then marked as if the wake were lost, older than the wake's
    // grace: both wakers wake it again, and it still runs once.
    const id = (await tenant.ok('POST', '/campaign/save', { campaign: { campaign_name: 'Two', from_email: 'hr@example.com' } })).id as number;
    await tenant.ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [tenant.ecardId] });
    await tenant.ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: Array.from({ length: 30 }, (_, i) => ({ email: `c${i}@${domain}`, first_name: `C${i}` })) });
    expect((await tenant.ok('POST', '/campaign/send', { campaignid: id })).status).to.equal('sending');
    await models.sequelize.query('UPDATE campaigns SET workflow_started = ?, updated_at = ? WHERE id = ?', { replacements: [false, new Date(Date.now() - 60_000), id] });
    // An enabled automation without its Schedule: the reconciler's work.
    const automation = await insertAutomation(models, accountId, firingZone(), tenant.ecardId);

    const workers = [drill.startWorker(), drill.startWorker()];
    try {
      await eventually(() => tenant.ok('GET', `/campaign/findOne/id/${id}`), (c) => c.status === 'sent', 120_000, 1000);
      await settled(models, accountId);
      await expectPass(models, tenant, drill.receiver, received);
      expect(received, 'emails').to.have.length(10 + 30);
      // Each member event: one delivery row (the drainers acted once), one attempt recorded and delivered, and every
      // event at the receiver under its stable id. Webhooks are at least once (the drills' rule: ≥ 1 per event): an
      // attempt's activity that Temporal runs again before the first run recorded it posts again under the same
      // attempt key, and the receiver dedupes on X-SVC-Event-Id (seen under CI's load: 12 requests, 10 attempts).
      const events = await models.OutboxEvent.findAll({ where: { account_id: accountId, event_type: 'team_member_created' } });
      expect(events).to.have.length(10);
      const eventIds = events.map((e) => e.event_id).sort();
      const deliveries = await models.WebhookDelivery.findAll({ where: { account_id: accountId, event_type: 'team_member_created' } });
      expect(deliveries.map((d) => d.event_id).sort()).to.deep.equal(eventIds);
      expect(deliveries.map((d) => `${d.event_id}: ${d.attempts} attempt(s), ${d.status}`)).to.deep.equal(deliveries.map((d) => `${d.event_id}: 1 attempt(s), Delivered`));
      const requests = drill.receiver.at(memberPath).map((r) => String(r.headers['x-svc-event-id']));
      expect([...new Set(requests)].sort()).to.deep.equal(eventIds);
      // One campaign workflow (its id is the campaign's) and one of each Schedule.
      const schedules: string[] = [];
      for await (const s of drill.client.schedule.list()) schedules.push(s.scheduleId);
      expect(schedules.filter((s) => s === automationScheduleId(accountId, automation.id))).to.have.length(1);
      expect(schedules.filter((s) => s === GIFT_EXPIRY_SCHEDULE_ID)).to.have.length(1);
      for (const w of workers) expect(w.child.exitCode, w.output()).to.equal(null);
    } finally {
      stop();
      await automation.update({ enabled: false });
      await stopChildren(...workers, drill.api);
    }
  });
});
