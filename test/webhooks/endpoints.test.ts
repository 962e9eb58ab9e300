import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount, newKey } from '../helpers/api.ts';
import { cardsvc } from '../helpers/cli.ts';
import { suiteDatabaseUrl } from '../helpers/database.ts';
import { baseEnv, tempDir } from '../helpers/env.ts';
import { eventually } from '../helpers/eventually.ts';
import { extraApp, TEST_REWARDS_KEY } from '../helpers/stack.ts';
import { hookPath, webhookApi, webhookContext } from '../helpers/webhooks.ts';
import { verifySignature } from '../../lib/signing.ts';
import { recordEvent } from '../../services/outbox.ts';
import { isIntegrationHost } from '../../services/webhooks/endpoints.ts';
import { sampleEcardShared } from '../../services/webhooks/samples.ts';

describe('webhooks: subscriptions, the ecard_shared URL, redaction, cardsvc webhook', function () {
  this.timeout(60_000);
  const ctx = webhookContext();
  // The CLI reads and writes sealed signing secrets: it needs the data key, as the API and the worker do.
  const env = (extra: Record<string, string> = {}) => baseEnv({ DATABASE_URL: suiteDatabaseUrl, DATA_DIR: tempDir(), DATA_ENCRYPTION_KEY: TEST_REWARDS_KEY, ...extra });

  describe('subscribe and unsubscribe', () => {
    it('the same (event_type, hookUrl) returns the same id; unsubscribe removes it; bad input is refused', async () => {
      const url = `${ctx.receiver.url}${hookPath('sub')}`;
      const id = await ctx.hooks.subscribe('team_member_created', url);
      expect(await ctx.hooks.subscribe('team_member_created', url)).to.equal(id);
      const other = await ctx.hooks.subscribe('team_member_deleted', url);
      expect(other).not.to.equal(id);
      expectFailure(await ctx.hooks.api('POST', '/pub/team-member-actions/subscribe', { event_type: 'member_renamed', hookUrl: url }), 400, 'invalid_parameter');
      expectFailure(await ctx.hooks.api('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created', hookUrl: 'ftp://example.com/x' }), 400, 'invalid_parameter');
      expectFailure(await ctx.hooks.api('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created' }), 422, 'missing_field');
      expect(expectSuccess(await ctx.hooks.api('POST', '/pub/team-member-actions/unsubscribe', { id }))).to.deep.equal({ id, removed: true });
      expectFailure(await ctx.hooks.api('POST', '/pub/team-member-actions/unsubscribe', { id }), 404, 'not_found');
      const listed = expectSuccess(await ctx.hooks.api('GET', '/webhook/endpoints')) as Array<{ id: number; kind: string; event_type: string }>;
      expect(listed.map((e) => [e.id, e.kind, e.event_type])).to.deep.equal([[other, 'member_change', 'team_member_deleted']]);
    });

    it('known integration-platform hosts count as integrations (exact host or subdomain, never a substring)', async () => {
      const app = await extraApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
      const api = webhookApi({ ...ctx.stack, url: app.url }, ctx.account);
      // Names of real platforms do not resolve on this machine, so the host rule is checked directly.
      expect(isIntegrationHost('https://hooks.zapier.com/hooks/catch/1/')).to.equal(true);
      expect(isIntegrationHost('https://zapier.com/x')).to.equal(true);
      expect(isIntegrationHost('https://hook.eu1.make.com/abc')).to.equal(true);
      expect(isIntegrationHost('https://x.n8n.cloud/webhook/1')).to.equal(true);
      expect(isIntegrationHost('https://notzapier.com/x')).to.equal(false);
      expect(isIntegrationHost('https://zapier.com.evil.example/x')).to.equal(false);
      expectFailure(await api.api('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created', hookUrl: 'https://localhost/x' }), 400, 'invalid_parameter');
    });

    it('with the guard on, private and loopback targets are refused when saved (400), spelled any way', async () => {
      const app = await extraApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
      const api = webhookApi({ ...ctx.stack, url: app.url }, ctx.account);
      for (const hookUrl of [
        `${ctx.receiver.url}/x`,
        'https://127.0.0.1/x',
        'https://localhost/x',
        'https://10.0.0.8/x',
        'https://169.254.169.254/latest/meta-data',
        'https://[::1]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://2130706433/x',
        'https://0177.0.0.1/x',
        'https://user:pass@example.com/x',
      ]) {
        const messages = expectFailure(await api.api('POST', '/pub/team-member-actions/subscribe', { event_type: 'team_member_created', hookUrl }), 400, 'invalid_parameter');
        expect(messages[0], hookUrl).to.match(/^hookUrl: /);
      }
      expectFailure(await api.api('POST', '/webhook/ecard-shared-url', { url: 'https://192.168.1.1/hook' }), 400, 'invalid_parameter');
      expect(await ctx.stack.models.WebhookEndpoint.count({ where: { account_id: ctx.account.accountId } })).to.equal(0);
    });

    it('needs webhooks scope; another account\'s endpoints and deliveries are 404', async () => {
      const viewer = await newKey(ctx.stack.models, ctx.account.accountId, { webhooks: 'view' });
      const url = `${ctx.receiver.url}${hookPath('scoped')}`;
      expectFailure(await call(ctx.stack.url, 'POST', '/v2/api/pub/team-member-actions/subscribe', { key: viewer.key, body: { event_type: 'team_member_created', hookUrl: url } }), 403, 'key_out_of_scope');
      const directoryOnly = await newKey(ctx.stack.models, ctx.account.accountId, { directory: 'manage' });
      expectFailure(await call(ctx.stack.url, 'GET', '/v2/api/webhook/deliveries', { key: directoryOnly.key }), 403, 'key_out_of_scope');
      expectSuccess(await call(ctx.stack.url, 'GET', '/v2/api/webhook/deliveries', { key: viewer.key }));

      const endpointId = await ctx.hooks.subscribe('team_member_created', url);
      await ctx.hooks.upsert({ email: 'mine@example.com' });
      const [delivery] = await ctx.hooks.settled(endpointId);
      const other = webhookApi(ctx.stack, await newAccount(ctx.stack.models));
      expectFailure(await other.api('GET', `/webhook/deliveries/findOne/id/${delivery!.id}`), 404, 'not_found');
      expectFailure(await other.api('POST', '/webhook/deliveries/replay', { id: delivery!.id }), 404, 'not_found');
      expectFailure(await other.api('POST', '/webhook/endpoints/enable', { endpoint_id: endpointId }), 404, 'not_found');
      expectFailure(await other.api('POST', '/pub/team-member-actions/unsubscribe', { id: endpointId }), 404, 'not_found');
      expectFailure(await other.api('POST', '/webhook/test', { endpoint_id: endpointId }), 404, 'not_found');
      expect(await other.deliveries()).to.deep.equal([]);
    });
  });

  describe('ecard_shared', () => {
    it('delivers the event\'s array body to the account\'s URL; blank disables it', async () => {
      const path = hookPath('shared');
      const set = expectSuccess(await ctx.hooks.api('POST', '/webhook/ecard-shared-url', { url: `${ctx.receiver.url}${path}` })) as { endpoint: { id: number; kind: string } };
      expect(set.endpoint.kind).to.equal('ecard_shared');
      const body = [...sampleEcardShared(new Date()), { ...sampleEcardShared(new Date())[0], sender_request_id: 'send-9.2', recipient_email: 'two@example.com' }];
      const sendId = crypto.randomUUID();
      await ctx.stack.models.sequelize.transaction((transaction) =>
        recordEvent(ctx.stack.services, { accountId: ctx.account.accountId, eventId: sendId, eventType: 'ecard_shared', source: 'api', memberId: null, occurredAt: new Date(), body }, transaction),
      );
      const [delivery] = await ctx.hooks.settled(set.endpoint.id);
      expect(delivery).to.deep.include({ status: 'Delivered', event_id: sendId, event_type: 'ecard_shared' });
      const received = JSON.parse(ctx.receiver.at(path)[0]!.body) as Array<{ sender_request_id: string }>;
      expect(received.map((e) => e.sender_request_id)).to.deep.equal(['test-send.1', 'send-9.2']);
      // A test send without endpoint_id goes to the ecard_shared URL.
      const test = expectSuccess(await ctx.hooks.api('POST', '/webhook/test', {})) as { id: number; endpoint_id: number };
      expect(test.endpoint_id).to.equal(set.endpoint.id);
      expect(expectSuccess(await ctx.hooks.api('POST', '/webhook/ecard-shared-url', { url: '' }))).to.deep.equal({ endpoint: null });
      expect(expectSuccess(await ctx.hooks.api('GET', '/webhook/endpoints'))).to.deep.equal([]);
    });
  });

  describe('erasure', () => {
    it('the delete event reaches its subscriber with id, email and employee_id, then every event of the member is redacted; a redacted delivery cannot be replayed', async () => {
      const path = hookPath('erase');
      const created = await ctx.hooks.subscribe('team_member_created', `${ctx.receiver.url}${path}`);
      const deleted = await ctx.hooks.subscribe('team_member_deleted', `${ctx.receiver.url}${path}`);
      const { member } = await ctx.hooks.upsert({ email: 'gone@example.com', employee_id: 'G-1', first_name: 'Gonzo' });
      const [createdDelivery] = await ctx.hooks.settled(created);
      expectSuccess(await ctx.hooks.api('POST', '/pub/team-member-actions/delete', { email: 'gone@example.com' }));
      const [deleteDelivery] = await ctx.hooks.settled(deleted);
      expect(deleteDelivery!.status).to.equal('Delivered');
      const deleteBody = JSON.parse(ctx.receiver.at(path).at(-1)!.body) as { event_type: string; member: object };
      expect(deleteBody).to.deep.include({ event_type: 'team_member_deleted', member: { id: member.id, email: 'gone@example.com', employee_id: 'G-1' } });
      const rows = await eventually(
        () => ctx.stack.models.OutboxEvent.findAll({ where: { account_id: ctx.account.accountId } }),
        (r) => r.every((e) => e.redacted_at !== null),
      );
      for (const row of rows) {
        expect(row.redacted_at).not.to.equal(null);
        expect(row.payload).not.to.match(/gone@example\.com|Gonzo|G-1/);
        expect((JSON.parse(row.payload) as { member: object }).member).to.deep.equal({ id: member.id });
      }
      const detail = await ctx.hooks.delivery(createdDelivery!.id);
      expect(detail.redacted).to.equal(true);
      expectFailure(await ctx.hooks.api('POST', '/webhook/deliveries/replay', { id: createdDelivery!.id }), 422, 'delivery_redacted');
    });
  });

  describe('cardsvc webhook', () => {
    it('set-url, secret (and --rotate: both secrets sign for 24 h), enable', async () => {
      const id = String(ctx.account.accountId);
      const path = hookPath('cli');
      const set = await cardsvc(['webhook', 'set-url', '--account', id, '--url', `${ctx.receiver.url}${path}`, '--json'], env({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }));
      expect(set.code, set.stderr).to.equal(0);
      const endpoint = (JSON.parse(set.stdout) as { endpoint: { id: number; url: string; state: string } }).endpoint;
      expect(endpoint).to.deep.include({ url: `${ctx.receiver.url}${path}`, state: 'active' });
      const refused = await cardsvc(['webhook', 'set-url', '--account', id, '--url', `${ctx.receiver.url}${path}`, '--json'], env());
      expect(refused.code).to.equal(1);
      expect(JSON.parse(refused.stdout)).to.deep.include({ ok: false, code: 'invalid_parameter' });

      const first = JSON.parse((await cardsvc(['webhook', 'secret', '--account', id, '--json'], env())).stdout) as { secret: string; previous: null };
      expect(first.secret).to.match(/^whsec_[0-9A-Za-z]{43}$/);
      expect(first.previous).to.equal(null);
      const rotated = JSON.parse((await cardsvc(['webhook', 'secret', '--account', id, '--rotate', '--json'], env())).stdout) as { secret: string; previous: string };
      expect(rotated.previous).to.equal(first.secret);
      expect(rotated.secret).not.to.equal(first.secret);

      const test = expectSuccess(await ctx.hooks.api('POST', '/webhook/test', {})) as { id: number };
      await eventually(() => ctx.hooks.delivery(test.id), (d) => d.status === 'Delivered');
      const request = ctx.receiver.at(path).at(-1)!;
      const header = request.headers['x-svc-signature'] as string;
      expect(header).to.match(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      expect(verifySignature(header, request.body, [rotated.secret])).to.equal(true);
      expect(verifySignature(header, request.body, [first.secret])).to.equal(true);

      await ctx.stack.models.WebhookEndpoint.update({ paused_at: new Date(), consecutive_failures: 3 }, { where: { id: endpoint.id } });
      const enabled = await cardsvc(['webhook', 'enable', '--account', id, '--endpoint-id', String(endpoint.id), '--json'], env());
      expect(JSON.parse(enabled.stdout)).to.deep.include({ id: endpoint.id, state: 'active', consecutive_failures: 0 });
      const missing = await cardsvc(['webhook', 'enable', '--account', id, '--endpoint-id', '999999', '--json'], env());
      expect(JSON.parse(missing.stdout)).to.deep.include({ ok: false, code: 'not_found' });
    });

    it('after the 24 hours only the new secret signs', async () => {
      const id = String(ctx.account.accountId);
      const path = hookPath('cli-late');
      await ctx.hooks.api('POST', '/webhook/ecard-shared-url', { url: `${ctx.receiver.url}${path}` });
      const old = JSON.parse((await cardsvc(['webhook', 'secret', '--account', id, '--json'], env())).stdout) as { secret: string };
      const rotated = JSON.parse((await cardsvc(['webhook', 'secret', '--account', id, '--rotate', '--json'], env())).stdout) as { secret: string };
      await ctx.stack.models.WebhookSecret.update({ rotated_at: new Date(Date.now() - 24 * 3600 * 1000 - 1000) }, { where: { account_id: ctx.account.accountId } });
      const shown = JSON.parse((await cardsvc(['webhook', 'secret', '--account', id, '--json'], env())).stdout) as { previous: string | null };
      expect(shown.previous).to.equal(null);
      const test = expectSuccess(await ctx.hooks.api('POST', '/webhook/test', {})) as { id: number };
      await eventually(() => ctx.hooks.delivery(test.id), (d) => d.status === 'Delivered');
      const request = ctx.receiver.at(path).at(-1)!;
      expect(request.headers['x-svc-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(verifySignature(request.headers['x-svc-signature'] as string, request.body, [rotated.secret])).to.equal(true);
      expect(verifySignature(request.headers['x-svc-signature'] as string, request.body, [old.secret])).to.equal(false);
    });
  });
});
