import { expect } from 'chai';
import { createLogger } from '../../lib/logger.ts';
import { createModels } from '../../models/index.ts';
import { createSequelize } from '../../lib/db.ts';
import { startApi } from '../../app/runtime.ts';
import { createServices } from '../../app/services.ts';
import { generateKey } from '../../services/api-keys.ts';
import { call, expectFailure } from '../helpers/api.ts';
import { fixtureRoutes } from '../helpers/fixture-routes.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { testConfig, testModels } from '../helpers/stack.ts';
import { startDbProxy, type DbProxy } from '../helpers/db-proxy.ts';
import { mysqlUrl } from '../helpers/env.ts';

describe('with the database unreachable', function () {
  this.timeout(30_000);
  let url: string;
  before(async () => {
    // Nothing listens on port 1: every query fails to connect, as when the database is down.
    const config = await testConfig({ DATABASE_URL: 'mysql://root@127.0.0.1:1/cardsvc' });
    const models = createModels(createSequelize(config.database));
    const services = createServices({ config, logger: createLogger(config), models, temporalAddress: config.temporal.address });
    const api = await startApi(services, { host: '127.0.0.1', extraRoutes: fixtureRoutes });
    onSuiteEnd(async () => {
      await api.stop();
      await services.close();
      await models.sequelize.close();
    });
    url = api.url;
  });

  it('answers 503 service_unavailable with Retry-After: 5 where a key would otherwise be refused', async () => {
    const res = await call(url, 'GET', '/v2/api/key/info', { key: generateKey('live') });
    expectFailure(res, 503, 'service_unavailable');
    expect(res.headers.get('retry-after')).to.equal('5');
    expect(JSON.stringify(res.body)).not.to.match(/ECONNREFUSED|127\.0\.0\.1|mysql/i);
  });

  it('answers 503 in the flat envelope on a flat route', async () => {
    const res = await call(url, 'POST', '/v2/api/fixture/flat', { key: generateKey('live'), body: {} });
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ success: false, reason: 'unavailable', code: 'service_unavailable' });
  });

  it('still refuses a malformed key (no database needed) and reports readiness as unavailable', async () => {
    expectFailure(await call(url, 'GET', '/v2/api/key/info', { key: 'csk_live_nope' }), 401, 'malformed_api_key');
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).to.equal(503);
    expect(await ready.json()).to.deep.include({ checks: { database: 'unavailable', temporal: 'ok' } });
  });
});

describe('with the database stalled (MySQL: every byte held, nothing refused)', function () {
  this.timeout(30_000);
  let url: string;
  let proxy: DbProxy;
  before(async function () {
    if (!mysqlUrl) return this.skip();
    // The API reaches the suite's (migrated) database through a proxy this test stalls; statements time out after 1 s.
    await testModels();
    proxy = await startDbProxy(mysqlUrl);
    const config = await testConfig({ DATABASE_URL: proxy.url, DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    const models = createModels(createSequelize(config.database));
    const services = createServices({ config, logger: createLogger(config), models, temporalAddress: config.temporal.address });
    const api = await startApi(services, { host: '127.0.0.1' });
    onSuiteEnd(async () => {
      proxy.restore();
      await api.stop();
      await services.close();
      await models.sequelize.close();
    });
    url = api.url;
  });

  // The answer, or `no answer` when none came within 8 s (before the statement timeout, a request on a pooled
  // connection waited for as long as the stall lasted).
  const keyInfo = () =>
    call(url, 'GET', '/v2/api/key/info', { key: generateKey('live'), signal: AbortSignal.timeout(8000) }).catch(() => 'no answer' as const);

  it('answers 503 with Retry-After on a pooled connection and on a new one, and 401 again once the bytes flow', async () => {
    // An unknown key is refused after a lookup: the pool now holds an idle connection.
    const before = await keyInfo();
    expect(before === 'no answer' ? before : before.status).to.equal(401);
    proxy.stall();
    for (let i = 0; i < 3; i++) {
      const res = await keyInfo();
      expect(res, 'no answer within 8 s').not.to.equal('no answer');
      if (res === 'no answer') return;
      expectFailure(res, 503, 'service_unavailable');
      expect(res.headers.get('retry-after')).to.equal('5');
    }
    proxy.restore();
    const after = await keyInfo();
    expect(after === 'no answer' ? after : after.status).to.equal(401);
  });
});
