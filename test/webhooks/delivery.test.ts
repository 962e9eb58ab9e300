import { expect } from 'chai';
import { verifySignature } from '../../lib/signing.ts';
import { accountSecret } from '../../services/webhooks/secrets.ts';
import { testClient } from '../helpers/temporal.ts';
import { hookPath, webhookContext } from '../helpers/webhooks.ts';
import { maybeRecordHistory } from '../helpers/histories.ts';

describe('webhooks: delivery of member-change events', function () {
  this.timeout(60_000);
  const ctx = webhookContext();

  it('delivers a member change at once, signed with the account secret, with the exact stored body', async () => {
    const path = hookPath('first');
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    const { member } = await ctx.hooks.upsert({ email: 'first@example.com', first_name: 'First' });
    const [delivery] = await ctx.hooks.settled(endpointId);
    expect(delivery).to.deep.include({ status: 'Delivered', attempts: 1, event_type: 'team_member_created', trigger: 'auto', error: null });
    const [request] = ctx.receiver.at(path);
    const outbox = await ctx.stack.models.OutboxEvent.findOne({ where: { account_id: ctx.account.accountId, event_type: 'team_member_created' } });
    expect(request!.body).to.equal(outbox!.payload);
    const body = JSON.parse(request!.body) as { event_id: string; member: { id: number; email: string } };
    expect(body.event_id).to.equal(delivery!.event_id);
    expect(body.member).to.deep.include({ id: member.id, email: 'first@example.com' });
    expect(request!.headers['user-agent']).to.equal('CardsvcHook');
    expect(request!.headers['content-type']).to.equal('application/json');
    const secret = (await accountSecret(ctx.stack.services, ctx.account.accountId)).secret;
    expect(verifySignature(request!.headers['x-svc-signature'] as string, request!.body, [secret])).to.equal(true);
    expect(verifySignature(request!.headers['x-svc-signature'] as string, `${request!.body} `, [secret])).to.equal(false);

    expect(delivery!.workflow_id).to.equal(`webhook/${ctx.account.accountId}/${delivery!.event_id}/${endpointId}`);
    const client = await testClient();
    // The row says Delivered just before the workflow's last step; its result is the end.
    expect(await client.workflow.getHandle(delivery!.workflow_id).result()).to.equal('Delivered');
    const described = await client.workflow.getHandle(delivery!.workflow_id).describe();
    expect(described.status.name).to.equal('COMPLETED');
    expect(described.searchAttributes).to.deep.include({ CardAccountId: [String(ctx.account.accountId)], CardKind: ['webhook'], CardStatus: ['Delivered'] });
    const detail = await ctx.hooks.delivery(delivery!.id);
    expect(detail.body).to.equal(outbox!.payload);
    expect(detail.attempt_log).to.have.length(1);
    expect(detail.attempt_log[0]).to.deep.include({ trigger: 'auto', response_status: 200, outcome: 'delivered', error: null });
    expect(detail.attempt_log[0]!.request_headers['X-SVC-Signature']).to.equal(request!.headers['x-svc-signature']);
  });

  it('retries on the schedule: fails twice, then succeeds; 3 attempts logged in order, same event id, delays growing', async () => {
    const path = hookPath('flaky');
    ctx.receiver.on(path, (n) => (n <= 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const endpointId = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
    await ctx.hooks.upsert({ email: 'flaky@example.com' });
    const [delivery] = await ctx.hooks.settled(endpointId);
    expect(delivery).to.deep.include({ status: 'Delivered', attempts: 3 });
    const requests = ctx.receiver.at(path);
    expect(requests).to.have.length(3);
    expect(new Set(requests.map((r) => r.body)).size).to.equal(1);
    expect(new Set(requests.map((r) => (JSON.parse(r.body) as { event_id: string }).event_id))).to.deep.equal(new Set([delivery!.event_id]));
    const [gap1, gap2] = [requests[1]!.at - requests[0]!.at, requests[2]!.at - requests[1]!.at];
    // The tests' schedule: 1 s, then 2 s.
    expect(gap1).to.be.at.least(990);
    expect(gap2).to.be.at.least(1990);
    expect(gap2 / gap1).to.be.within(1.5, 2.6);
    const detail = await ctx.hooks.delivery(delivery!.id);
    expect(detail.attempt_log.map((a) => [a.response_status, a.outcome])).to.deep.equal([
      [500, 'failed'],
      [500, 'failed'],
      [204, 'delivered'],
    ]);
    expect(detail.attempt_log[0]!.response_body).to.equal('boom');
    await maybeRecordHistory(await testClient(), delivery!.workflow_id, 'webhook-delivery-workflow');
  });

  it('an identical re-sync emits nothing, so nothing is delivered', async () => {
    const path = hookPath('quiet');
    const endpointId = await ctx.hooks.subscribe('team_member_updated', `${ctx.receiver.url}${path}`);
    await ctx.hooks.upsert({ email: 'quiet@example.com', first_name: 'Q' });
    await ctx.hooks.upsert({ email: 'quiet@example.com', first_name: 'Q' });
    await ctx.hooks.upsert({ email: 'quiet@example.com', first_name: 'R' });
    const list = await ctx.hooks.settled(endpointId);
    expect(list).to.have.length(1);
    expect((JSON.parse(ctx.receiver.at(path)[0]!.body) as { changed_fields: string[] }).changed_fields).to.deep.equal(['first_name']);
  });
});
