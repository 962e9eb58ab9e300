import { expect } from 'chai';
import { startApi } from '../../app/runtime.ts';
import { freePort } from '../helpers/ports.ts';
import { testConfig, testServices, testStack } from '../helpers/stack.ts';

describe('health probes', function () {
  this.timeout(30_000);

  it('GET /healthz answers 200 while the process is up', async () => {
    const { url } = await testStack();
    const res = await fetch(`${url}/healthz`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ status: 'ok' });
  });

  it('GET /readyz answers 200 when the database and the Temporal namespace answer', async () => {
    const { url } = await testStack();
    const res = await fetch(`${url}/readyz`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ status: 'ready', checks: { database: 'ok', temporal: 'ok' } });
    expect(res.headers.get('x-request-id')).to.be.a('string');
  });

  it('starts without Temporal and answers /readyz 503 naming temporal, within the 2 s deadline', async () => {
    const config = await testConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}` });
    const api = await startApi(await testServices(config), { host: '127.0.0.1' });
    try {
      const started = performance.now();
      const res = await fetch(`${api.url}/readyz`);
      const elapsed = performance.now() - started;
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({ status: 'unavailable', checks: { database: 'ok', temporal: 'unavailable' } });
      expect(elapsed).to.be.below(5000);
      expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    } finally {
      await api.stop();
    }
  });

  it('answers an unknown path with a 404 envelope carrying the request id', async () => {
    const { url } = await testStack();
    const res = await fetch(`${url}/nowhere`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.status).to.equal(404);
    expect(res.headers.get('x-request-id')).to.equal('trace-123');
    expect(await res.json()).to.deep.include({ success: false, data: null, code: 'not_found', request_id: 'trace-123' });
  });
});
