import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { testStack } from '../helpers/stack.ts';

describe('the envelope and the shared errors', function () {
  this.timeout(30_000);
  let url: string;
  let account: TestAccount;
  before(async () => {
    const stack = await testStack();
    url = stack.url;
    account = await newAccount(stack.models);
  });
  const post = (path: string, init: Parameters<typeof call>[3] = {}) => call(url, 'POST', path, { key: account.liveKey, ...init });

  it('wraps a success as { success, data, messages: [] } without code or request_id', async () => {
    const res = await post('/v2/api/fixture/echo', { body: { name: 'Ada', count: 2, enabled: '1', unknownField: 'ignored' } });
    expect(expectSuccess(res)).to.deep.equal({ name: 'Ada', count: 2, enabled: true });
  });

  it('adds a top-level meta to lists', async () => {
    const res = await call(url, 'GET', '/v2/api/fixture/list?page=3&perPage=20', { key: account.liveKey });
    expect((expectSuccess(res) as unknown[]).length).to.equal(5);
    expect(res.body.meta).to.deep.equal({ page: 3, perPage: 20, total: 45, totalPages: 3 });
  });

  it('writes flat bodies for a flat route, successes and failures alike', async () => {
    const ok = await post('/v2/api/fixture/flat', { body: {} });
    expect(ok.status).to.equal(200);
    expect(ok.body).to.deep.equal({ success: true, messages: [], sendId: 'send-1' });
    const failed = await post('/v2/api/fixture/flat', { body: { fail: true } });
    expect(failed.status).to.equal(400);
    expect(failed.body).to.deep.include({ success: false, reason: 'einvalid', code: 'einvalid', messages: ['senderEmail is not a valid email'] });
    expect(failed.body).not.to.have.key('data');
    const unauthorized = await call(url, 'POST', '/v2/api/fixture/flat', { body: {} });
    expect(unauthorized.status).to.equal(401);
    expect(unauthorized.body).to.include({ success: false, reason: 'missing_api_key' });
  });

  it('accepts the documented aliases of a parameter', async () => {
    const res = await post('/v2/api/fixture/echo', { body: { name: 'A', widgetID: 'w-1' } });
    expect(expectSuccess(res)).to.deep.include({ widgetId: 'w-1' });
  });

  describe('400: malformed or of the wrong type', () => {
    it('malformed JSON', async () => {
      expectFailure(await post('/v2/api/fixture/echo', { rawBody: '{"name": ', headers: { 'Content-Type': 'application/json' } }), 400, 'malformed_json');
    });
    it('a body that is not an object', async () => {
      expectFailure(await post('/v2/api/fixture/echo', { body: ['name'] }), 400, 'body_not_object');
      expectFailure(await post('/v2/api/fixture/echo', { body: 'name' }), 400, 'body_not_object');
    });
    it('a field of the wrong type, named in the message', async () => {
      const messages = expectFailure(await post('/v2/api/fixture/echo', { body: { name: 'A', count: 'two' } }), 400, 'invalid_parameter');
      expect(messages[0]).to.match(/^count: /);
      const flag = expectFailure(await post('/v2/api/fixture/echo', { body: { name: 'A', enabled: 'yes' } }), 400, 'invalid_parameter');
      expect(flag[0]).to.match(/^enabled: /);
    });
    it('a query parameter out of range (perPage over 100)', async () => {
      const messages = expectFailure(await call(url, 'GET', '/v2/api/fixture/list?perPage=101', { key: account.liveKey }), 400, 'invalid_parameter');
      expect(messages[0]).to.match(/^perPage: /);
    });
  });

  describe('422: a required field missing, null or empty', () => {
    for (const [what, body] of [['missing', {}], ['null', { name: null }], ['empty', { name: '' }], ['blank', { name: '   ' }]] as const) {
      it(`${what}`, async () => {
        expect(expectFailure(await post('/v2/api/fixture/echo', { body }), 422, 'missing_field')).to.deep.equal(['name is required']);
      });
    }
    it('a POST with no body is {}', async () => {
      expect(expectFailure(await post('/v2/api/fixture/echo'), 422, 'missing_field')).to.deep.equal(['name is required']);
    });
  });

  it('413 for a body over the limit', async () => {
    const res = await post('/v2/api/fixture/echo', { body: { name: 'x'.repeat(1024 * 1024 + 10) } });
    expectFailure(res, 413, 'payload_too_large');
  });

  it('415 for a body that is not JSON', async () => {
    const res = await post('/v2/api/fixture/echo', { rawBody: 'name=Ada', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expectFailure(res, 415, 'unsupported_media_type');
    const json = await post('/v2/api/fixture/echo', { rawBody: '{"name":"A"}', headers: { 'Content-Type': 'application/vnd.api+json' } });
    expectSuccess(json);
  });

  it('404 for an unknown path with a valid key, 405 with Allow for a wrong method', async () => {
    expectFailure(await call(url, 'GET', '/v2/api/nowhere', { key: account.liveKey }), 404, 'not_found');
    const res = await call(url, 'DELETE', '/v2/api/key/info', { key: account.liveKey });
    expectFailure(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).to.equal('HEAD, GET');
  });

  it('500 with a generic message: no stack, no SQL, details only in the log', async () => {
    const res = await call(url, 'GET', '/v2/api/fixture/boom', { key: account.liveKey });
    const messages = expectFailure(res, 500, 'internal_error');
    expect(JSON.stringify(res.body)).not.to.match(/SELECT|secret-detail|at .*\.ts/);
    expect(messages[0]).to.include('request id');
  });

  it('a database still locked after every wait (SQLITE_BUSY) is 503 service_unavailable with Retry-After, not 500', async () => {
    const res = await call(url, 'GET', '/v2/api/fixture/busy', { key: account.liveKey });
    expectFailure(res, 503, 'service_unavailable');
    expect(res.headers.get('retry-after')).to.equal('5');
    expect(JSON.stringify(res.body)).not.to.include('SQLITE');
  });

  it('a response with a field outside its declared schema is refused (strict response checks)', async () => {
    const res = await call(url, 'GET', '/v2/api/fixture/leaky', { key: account.liveKey });
    expectFailure(res, 500, 'internal_error');
    expect(JSON.stringify(res.body)).not.to.include('leaked');
  });

  it('keeps a safe incoming X-Request-Id and replaces an unsafe one', async () => {
    const kept = await call(url, 'GET', '/v2/api/key/info', { key: account.liveKey, headers: { 'X-Request-Id': 'abc-123_x.y' } });
    expect(kept.headers.get('x-request-id')).to.equal('abc-123_x.y');
    const replaced = await call(url, 'GET', '/v2/api/nowhere', { key: account.liveKey, headers: { 'X-Request-Id': '<script>alert(1)</script>' } });
    expect(replaced.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    expect(replaced.body.request_id).to.equal(replaced.headers.get('x-request-id'));
  });
});
