// The one route kit (api/http/): one allowed-methods over every surface, declared request headers in the OpenAPI
// document (their validation: test/api/hostile-input.test.ts); the widget surface is tested through its own routes (test/widgets/: send, gallery, embed, verify).
import { expect } from 'chai';
import { buildOpenApiDocument } from '../../api/openapi.ts';
import { apiRoutes } from '../../api/routes.ts';
import { call, expectFailure } from '../helpers/api.ts';
import { testStack } from '../helpers/stack.ts';

describe('the route kit', function () {
  this.timeout(30_000);
  let url: string;
    before(async () => {
    const stack = await testStack();
    url = stack.url;
  });

  it('a wrong method on a console page is 405 with Allow, as on the APIs', async () => {
    const res = await call(url, 'PUT', '/v2/console/keys', {});
    expectFailure(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).to.equal('HEAD, GET, POST');
  });

  it('a wrong method on a console API path is 405 with Allow', async () => {
    const res = await call(url, 'DELETE', '/v2/console/api/me', {});
    expectFailure(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).to.equal('HEAD, GET');
  });

  it('documents a declared header as a header parameter', () => {
    const document = buildOpenApiDocument(apiRoutes) as unknown as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };
    const parameters = document.paths['/pub/ecard-actions/send-ecard']!.post!.parameters ?? [];
    expect(parameters.map((p) => `${p.in} ${p.name}`)).to.deep.equal(['header Idempotency-Key']);
  });

});
