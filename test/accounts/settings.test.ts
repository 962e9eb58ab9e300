// The account's settings of local time on the key API (GET/POST /account/settings): the defaults, each field set
// alone (the other stays), quiet hours across midnight and removed, every bad value refused with nothing changed,
// the `settings` scope, and the sandbox's and another account's settings kept apart.
import { expect } from 'chai';
import { call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Settings = { default_timezone: string; quiet_hours: { start: string; end: string } | null };
const DEFAULTS: Settings = { default_timezone: 'UTC', quiet_hours: null };

describe('account settings: default time zone and quiet hours', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const get = (key = account.liveKey) => call(stack.url, 'GET', '/v2/api/account/settings', { key });
  const post = (body: unknown, key = account.liveKey) => call(stack.url, 'POST', '/v2/api/account/settings', { key, body });
  const read = async (key = account.liveKey) => expectSuccess(await get(key)) as Settings;
  const change = async (body: unknown, key = account.liveKey) => expectSuccess(await post(body, key)) as Settings;

  it('a new account has UTC and no quiet hours, and no settings row', async () => {
    expect(await read()).to.deep.equal(DEFAULTS);
    expect(await stack.models.AccountSettings.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('sets the default zone alone (canonicalised); the quiet hours stay', async () => {
    await change({ quiet_hours: { start: '21:00', end: '06:30' } });
    const answer = await change({ default_timezone: 'america/chicago' });
    expect(answer).to.deep.equal({ default_timezone: 'America/Chicago', quiet_hours: { start: '21:00', end: '06:30' } });
    expect(await read()).to.deep.equal(answer);
  });

  it('sets quiet hours alone, across midnight; the zone stays; null removes them; both at once', async () => {
    await change({ default_timezone: 'Asia/Tokyo' });
    expect(await change({ quiet_hours: { start: '22:00', end: '07:00' } })).to.deep.equal({ default_timezone: 'Asia/Tokyo', quiet_hours: { start: '22:00', end: '07:00' } });
    expect(await change({ quiet_hours: { start: '12:00', end: '13:30' } })).to.deep.equal({ default_timezone: 'Asia/Tokyo', quiet_hours: { start: '12:00', end: '13:30' } });
    expect(await change({ quiet_hours: null })).to.deep.equal({ default_timezone: 'Asia/Tokyo', quiet_hours: null });
    expect(await change({ default_timezone: 'UTC', quiet_hours: { start: '00:00', end: '23:59' } })).to.deep.equal({ default_timezone: 'UTC', quiet_hours: { start: '00:00', end: '23:59' } });
    expect(await read()).to.deep.equal({ default_timezone: 'UTC', quiet_hours: { start: '00:00', end: '23:59' } });
    // A body with neither field changes nothing.
    expect(await change({})).to.deep.equal({ default_timezone: 'UTC', quiet_hours: { start: '00:00', end: '23:59' } });
  });

  describe('bad values change nothing', () => {
    const SAVED: Settings = { default_timezone: 'Europe/Paris', quiet_hours: { start: '20:00', end: '08:00' } };
    beforeEach(async () => {
      await change(SAVED);
    });
    const refused = async (body: unknown, status: number, code: string, message: RegExp) => {
      const messages = expectFailure(await post(body), status, code);
      expect(messages[0], JSON.stringify(body)).to.match(message);
      expect(await read()).to.deep.equal(SAVED);
    };

    it('an unknown zone or a raw offset → 400 naming default_timezone', async () => {
      await refused({ default_timezone: 'Europe/Atlantis' }, 400, 'invalid_parameter', /^default_timezone: expected an IANA time zone name/);
      await refused({ default_timezone: '+02:00' }, 400, 'invalid_parameter', /^default_timezone: /);
      await refused({ default_timezone: 7 }, 400, 'invalid_parameter', /^default_timezone: /);
      // Sent, the zone is required: null or blank is 422 (going back to the default is sending "UTC").
      await refused({ default_timezone: null }, 422, 'missing_field', /^default_timezone is required/);
      await refused({ default_timezone: '  ' }, 422, 'missing_field', /^default_timezone is required/);
    });

    it('"25:00" or "9:5" → 400 naming the time', async () => {
      await refused({ quiet_hours: { start: '25:00', end: '07:00' } }, 400, 'invalid_parameter', /^quiet_hours\.start: expected a 24-hour time HH:MM/);
      await refused({ quiet_hours: { start: '22:00', end: '9:5' } }, 400, 'invalid_parameter', /^quiet_hours\.end: expected a 24-hour time HH:MM/);
      await refused({ quiet_hours: { start: '22:60', end: '07:00' } }, 400, 'invalid_parameter', /^quiet_hours\.start: /);
      await refused({ quiet_hours: '22:00-07:00' }, 400, 'invalid_parameter', /^quiet_hours: /);
    });

    it('start equal to end → 422 invalid_value (an empty window); a missing end → 422 naming it', async () => {
      await refused({ quiet_hours: { start: '22:00', end: '22:00' } }, 422, 'invalid_value', /^quiet_hours: start and end are both 22:00, an empty window/);
      await refused({ quiet_hours: { start: '22:00' } }, 422, 'missing_field', /^quiet_hours\.end is required/);
      // A refused quiet window keeps the zone sent beside it from being saved too.
      await refused({ default_timezone: 'Asia/Seoul', quiet_hours: { start: '06:00', end: '06:00' } }, 422, 'invalid_value', /empty window/);
    });
  });

  it('needs the settings scope: none → 403 for both; view reads but cannot change', async () => {
    const none = await newKey(stack.models, account.accountId, { directory: 'manage' });
    expectFailure(await get(none.key), 403, 'key_out_of_scope');
    expectFailure(await post({ default_timezone: 'Asia/Tokyo' }, none.key), 403, 'key_out_of_scope');
    const viewer = await newKey(stack.models, account.accountId, { settings: 'view' });
    expect(await read(viewer.key)).to.deep.equal(DEFAULTS);
    expectFailure(await post({ default_timezone: 'Asia/Tokyo' }, viewer.key), 403, 'key_out_of_scope');
    const manager = await newKey(stack.models, account.accountId, { settings: 'manage' });
    expect(await change({ default_timezone: 'Asia/Tokyo' }, manager.key)).to.have.property('default_timezone', 'Asia/Tokyo');
  });

  it('the sandbox has its own settings: a change on either side leaves the other as it was', async () => {
    await change({ default_timezone: 'Europe/Madrid', quiet_hours: { start: '23:00', end: '06:00' } }, account.sandboxKey);
    expect(await read()).to.deep.equal(DEFAULTS);
    await change({ default_timezone: 'America/Denver' });
    expect(await read(account.sandboxKey)).to.deep.equal({ default_timezone: 'Europe/Madrid', quiet_hours: { start: '23:00', end: '06:00' } });
    expect(await read()).to.deep.equal({ default_timezone: 'America/Denver', quiet_hours: null });
  });

  it('another account neither sees nor changes them', async () => {
    await change({ default_timezone: 'Pacific/Auckland', quiet_hours: { start: '19:00', end: '09:00' } });
    const other = await newAccount(stack.models);
    expect(await read(other.liveKey)).to.deep.equal(DEFAULTS);
    await change({ default_timezone: 'Africa/Cairo', quiet_hours: null }, other.liveKey);
    expect(await read()).to.deep.equal({ default_timezone: 'Pacific/Auckland', quiet_hours: { start: '19:00', end: '09:00' } });
    expect(await read(other.liveKey)).to.deep.equal({ default_timezone: 'Africa/Cairo', quiet_hours: null });
  });
});
