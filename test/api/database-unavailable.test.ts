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
import { testConfig } from '../helpers/stack.ts';

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
