import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../lib/logger.ts';
import { startApi } from '../../app/runtime.ts';
import { call, newAccount } from '../helpers/api.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { fixtureRoutes } from '../helpers/fixture-routes.ts';
import { testConfig, testModels, testServices } from '../helpers/stack.ts';

describe('request logs', function () {
  this.timeout(30_000);

  it('log every request with its id and status, and never an Authorization header or a key', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const config = await testConfig({ LOG_LEVEL: 'info' });
    const models = await testModels();
    const api = await startApi(await testServices(config, { logger: createLogger(config, sink) }), { host: '127.0.0.1', extraRoutes: fixtureRoutes });
    onSuiteEnd(() => api.stop());
    const account = await newAccount(models);

    const ok = await call(api.url, 'GET', '/v2/api/key/info', { key: account.liveKey });
    const wrongKey = `${account.liveKey.slice(0, -1)}${account.liveKey.endsWith('x') ? 'y' : 'x'}`;
    await call(api.url, 'GET', '/v2/api/key/info', { key: wrongKey });
    await call(api.url, 'GET', '/v2/api/fixture/boom', { key: account.liveKey });
    await new Promise((r) => setTimeout(r, 50));

    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requestLines = entries.filter((e) => e.msg === 'request');
    expect(requestLines).to.have.length(3);
    expect(requestLines[0]).to.deep.include({ method: 'GET', path: '/v2/api/key/info', status: 200, keyId: account.liveKeyId, requestId: ok.headers.get('x-request-id') });
    expect(requestLines[1]).to.deep.include({ status: 401 });
    const failure = entries.find((e) => e.msg === 'unhandled error');
    expect(JSON.stringify(failure)).to.include('secret-detail'); // the details are in the log, not the response
    const all = lines.join('\n');
    expect(all).not.to.include(account.liveKey.slice(9, 30));
    expect(all.toLowerCase()).not.to.include('bearer');
    expect(all.toLowerCase()).not.to.include('authorization');
  });
});
