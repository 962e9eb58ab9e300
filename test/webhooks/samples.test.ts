// GET /webhook/sample (issue 46, item 1): one body of every type a subscription or the ecard_shared URL may take,
// outcome events included, each shaped by the same schema as the real deliveries of its type.
import { expect } from 'chai';
import { WEBHOOK_EVENT_TYPES } from '../../services/webhooks/samples.ts';
import { expectFailure, expectSuccess, newKey } from '../helpers/api.ts';
import { expectEventShape, webhookApi, webhookContext } from '../helpers/webhooks.ts';

describe('webhooks: samples', function () {
  const ctx = webhookContext();

  it('serves a sample of each type, valid against the schema of that type\'s deliveries', async () => {
    expect(WEBHOOK_EVENT_TYPES).to.include.members(['ecard_shared', 'team_member_created', 'ecard_delivered', 'ecard_opened', 'ecard_failed', 'ecard_bounced', 'campaign_completed', 'gift_claimed']);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const body = expectSuccess(await ctx.hooks.api('GET', `/webhook/sample?event_type=${type}`));
      expectEventShape(type, body);
      const event = (Array.isArray(body) ? body[0] : body) as { event_type: string };
      expect(event.event_type).to.equal(type);
    }
  });

  it('needs webhooks: view and a known event_type', async () => {
    const bare = await newKey(ctx.stack.models, ctx.account.accountId, { sends: 'view' });
    expectFailure(await webhookApi(ctx.stack, ctx.account, bare.key).api('GET', '/webhook/sample?event_type=ecard_opened'), 403, 'key_out_of_scope');
    expectFailure(await ctx.hooks.api('GET', '/webhook/sample?event_type=ecard_nonsense'), 400, 'invalid_parameter');
    expectFailure(await ctx.hooks.api('GET', '/webhook/sample'), 422, 'missing_field');
  });

  it('the OpenAPI document lists the sample route with every type', async () => {
    const doc = (await (await fetch(`${ctx.stack.url}/v2/api/openapi.json`)).json()) as { paths: Record<string, { get?: { parameters?: Array<{ name: string; schema: { enum?: string[] } }> } }> };
    const param = doc.paths['/webhook/sample']?.get?.parameters?.find((p) => p.name === 'event_type');
    expect(param?.schema.enum).to.have.members([...WEBHOOK_EVENT_TYPES]);
  });
});
