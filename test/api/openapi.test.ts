import { expect } from 'chai';
import { testStack } from '../helpers/stack.ts';

describe('GET /v2/api/openapi.json', function () {
  this.timeout(30_000);

  it('serves an OpenAPI 3 document built from the route schemas, without a key', async () => {
    const { url, config } = await testStack();
    const res = await fetch(`${url}/v2/api/openapi.json`);
    expect(res.status).to.equal(200);
    const doc = (await res.json()) as { openapi: string; servers: Array<{ url: string }>; paths: Record<string, unknown> };
    expect(doc.openapi).to.match(/^3\./);
    expect(doc.servers[0]!.url).to.equal(config.publicBaseUrl);
    expect(doc.paths).to.have.keys(['/healthz', '/readyz']);
    expect(JSON.stringify(doc.paths['/readyz'])).to.include('"503"').and.include('temporal');
  });
});
