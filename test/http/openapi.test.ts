import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { openApiText } from '../../api/openapi.ts';
import { apiRoutes } from '../../api/routes.ts';
import { packageRoot } from '../../lib/paths.ts';
import { call, newAccount } from '../helpers/api.ts';
import { inlineRefs } from '../helpers/openapi-refs.ts';
import { testStack } from '../helpers/stack.ts';

describe('the OpenAPI document', function () {
  this.timeout(30_000);

  it('is served without a key at /v2/api/openapi.json and validates as OpenAPI 3.1', async () => {
    const { url } = await testStack();
    const res = await fetch(`${url}/v2/api/openapi.json`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    const document = (await res.json()) as Record<string, unknown>;
    const result = await new Validator().validate(document);
    expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(document.openapi).to.equal('3.1.0');
    expect(document.servers).to.deep.equal([{ url: '/v2/api' }]);
    expect(document).to.have.nested.property('components.securitySchemes.bearer.scheme', 'bearer');
  });

  it('describes every route that exists, and no test fixture', async () => {
    const { url } = await testStack();
    const document = (await (await fetch(`${url}/v2/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`));
    const defined = apiRoutes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(documented.sort()).to.deep.equal(defined.sort());
    expect(JSON.stringify(document)).not.to.include('/fixture/');
  });

  it('documents the webhook families (and the outcome events) as webhooks, with the bodies the service sends', async () => {
    const { url } = await testStack();
    // Written out: the bodies name their event schemas (components) by `$ref`.
    const document = inlineRefs((await (await fetch(`${url}/v2/api/openapi.json`)).json()) as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } }> });
    expect(Object.keys(document.webhooks).sort()).to.deep.equal(['campaignCompleted', 'ecardShared', 'giftClaimed', 'memberChange', 'outcomeEvent']);
    const bodyOf = (name: string) => JSON.stringify(document.webhooks[name]!.post.requestBody.content['application/json']!.schema);
    for (const type of ['ecard_delivered', 'ecard_opened', 'ecard_failed', 'ecard_bounced', 'bounced_at', 'campaign_id']) expect(bodyOf('outcomeEvent')).to.include(type);
    for (const field of ['campaign_completed', 'counts', 'bounced']) expect(bodyOf('campaignCompleted')).to.include(field);
    for (const field of ['gift_claimed', 'code_masked', 'claimed_at']) expect(bodyOf('giftClaimed')).to.include(field);
    const memberBody = document.webhooks.memberChange!.post.requestBody.content['application/json']!.schema;
    expect(JSON.stringify(memberBody)).to.include('team_member_deleted');
    expect(document.webhooks.ecardShared!.post.requestBody.content['application/json']!.schema.type).to.equal('array');
  });

  // Found by the fuzzer (npm run fuzz): send-ecard answered flat failures while its document promised `data: null`.
  it('documents send-ecard failures flat, as the route answers them', async () => {
    const { url, models } = await testStack();
    // Written out: the failures name their answers and bodies (components) by `$ref`.
    const document = inlineRefs((await (await fetch(`${url}/v2/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { required: string[] } }> }> }>>;
    });
    const responses = document.paths['/pub/ecard-actions/send-ecard']!.post!.responses;
    const account = await newAccount(models);
    const res = await call(url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.sandboxKey, body: { senderName: 'Sam' } });
    for (const status of ['400', '415', '422', String(res.status)]) {
      const required = responses[status]!.content['application/json']!.schema.required;
      expect(required, status).to.include.members(['success', 'reason', 'messages', 'code', 'request_id']).and.not.include('data');
    }
    expect(res.body).to.include.keys(responses[String(res.status)]!.content['application/json']!.schema.required);
    expect(res.body).not.to.have.property('data');
  });

  it('matches the committed copy, docs/openapi.json (run `npm run openapi` after a contract change)', () => {
    const committed = readFileSync(join(packageRoot, 'docs', 'openapi.json'), 'utf8');
    expect(openApiText(apiRoutes), 'the contract changed: run `npm run openapi` and commit docs/openapi.json').to.equal(committed);
  });

  it('has a docs page served from node_modules (no CDN)', async () => {
    const { url } = await testStack();
    const page = await fetch(`${url}/v2/api/docs`);
    expect(page.status).to.equal(200);
    const html = await page.text();
    expect(html).to.include('/v2/api/docs/swagger-ui-bundle.js').and.not.match(/https?:\/\/(?!localhost)/);
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
      const res = await fetch(`${url}/v2/api/docs/${asset}`);
      expect(res.status, asset).to.equal(200);
      expect((await res.text()).length, asset).to.be.greaterThan(10);
    }
    expect((await fetch(`${url}/v2/api/docs/package.json`)).status).to.equal(401);
  });
});
