// Members' time zones (issue 34, local time): the upsert takes an IANA name (canonicalised), refuses an unknown one
// or a raw offset (400 naming the field), clears it with "" or null; find and list answer it; fields lists it; the
// import maps a column to it; member events carry it.
import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { outboxEvents } from '../helpers/directory.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Member = Record<string, unknown> & { id: number; email: string; timezone: string | null };
type Answer = { action: string; member: Member; changed_fields: string[] };

describe('directory: member time zones', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const upsert = async (body: Record<string, unknown>) => expectSuccess(await api('POST', '/pub/team-member-actions/upsert', body)) as Answer;
  const find = async (email: string) => expectSuccess(await api('GET', `/pub/team-member-actions/find?email=${encodeURIComponent(email)}`)) as Member;
  const stored = async (email: string) => (await stack.models.TeamMember.findOne({ where: { account_id: account.accountId, email }, rejectOnEmpty: true })).timezone;

  it('creates a member with a zone, answered as sent, stored, and carried by the created event', async () => {
    const answer = await upsert({ email: 'kenji@example.com', first_name: 'Kenji', timezone: 'Asia/Tokyo' });
    expect(answer.action).to.equal('created');
    expect(answer.changed_fields).to.deep.equal(['email', 'first_name', 'timezone']);
    expect(answer.member.timezone).to.equal('Asia/Tokyo');
    expect(await stored('kenji@example.com')).to.equal('Asia/Tokyo');
    const [event] = await outboxEvents(stack.models, account.accountId);
    expect(event!.body.member).to.deep.include({ email: 'kenji@example.com', timezone: 'Asia/Tokyo' });
  });

  it('canonicalises the name as campaigns do (europe/berlin → Europe/Berlin); a different spelling of the same zone is unchanged', async () => {
    expect((await upsert({ email: 'ute@example.com', timezone: ' europe/berlin ' })).member.timezone).to.equal('Europe/Berlin');
    expect(await stored('ute@example.com')).to.equal('Europe/Berlin');
    const again = await upsert({ email: 'ute@example.com', timezone: 'EUROPE/BERLIN' });
    expect(again.action).to.equal('unchanged');
    expect(again.member.timezone).to.equal('Europe/Berlin');
    expect((await upsert({ email: 'ute@example.com', timezone: 'utc' })).member.timezone).to.equal('UTC');
  });

  it('an unknown zone, a raw offset or a non-string is 400 invalid_parameter naming timezone, and nothing is written', async () => {
    for (const timezone of ['Mars/Olympus_Mons', '+09:00', 'GMT+9:00', 42]) {
      const messages = expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'bad@example.com', timezone }), 400, 'invalid_parameter');
      expect(messages[0], JSON.stringify(timezone)).to.match(/^timezone: /);
    }
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(0);
    await upsert({ email: 'kept@example.com', timezone: 'America/New_York' });
    expectFailure(await api('POST', '/pub/team-member-actions/upsert', { email: 'kept@example.com', timezone: 'America/Nowhere' }), 400, 'invalid_parameter');
    expect(await stored('kept@example.com')).to.equal('America/New_York');
  });

  it('"" and null clear the zone (changed_fields names it); leaving it out keeps it', async () => {
    await upsert({ email: 'ana@example.com', timezone: 'America/Sao_Paulo' });
    const kept = await upsert({ email: 'ana@example.com', first_name: 'Ana' });
    expect(kept.member.timezone).to.equal('America/Sao_Paulo');
    const cleared = await upsert({ email: 'ana@example.com', timezone: '' });
    expect(cleared).to.deep.include({ action: 'updated', changed_fields: ['timezone'] });
    expect(cleared.member.timezone).to.equal(null);
    expect(await stored('ana@example.com')).to.equal(null);
    await upsert({ email: 'ana@example.com', timezone: 'Africa/Lagos' });
    expect((await upsert({ email: 'ana@example.com', timezone: null })).member.timezone).to.equal(null);
    const events = await outboxEvents(stack.models, account.accountId);
    expect(events.at(-1)!.body).to.deep.include({ event_type: 'team_member_updated', changed_fields: ['timezone'] });
  });

  it('find and list answer the zone (null for a member without one)', async () => {
    await upsert({ email: 'zoned@example.com', timezone: 'Australia/Sydney' });
    await upsert({ email: 'plain@example.com' });
    expect(await find('zoned@example.com')).to.have.property('timezone', 'Australia/Sydney');
    expect(await find('plain@example.com')).to.have.property('timezone', null);
    const list = expectSuccess(await api('GET', '/pub/team-member-actions/list')) as Member[];
    expect(list.map((m) => [m.email, m.timezone])).to.deep.equal([['zoned@example.com', 'Australia/Sydney'], ['plain@example.com', null]]);
  });

  it('fields lists timezone among the built-in fields', async () => {
    const fields = expectSuccess(await api('GET', '/pub/team-member-actions/fields')) as Array<Record<string, unknown>>;
    expect(fields.find((f) => f.key === 'timezone')).to.deep.equal({ key: 'timezone', label: 'Time zone', type: 'string', required: false, format: 'IANA time zone' });
  });

  it('the import maps a column to timezone: a zone is canonicalised, a bad one is a problem row, a blank cell keeps the zone', async () => {
    await upsert({ email: 'keep@example.com', timezone: 'Europe/Lisbon' });
    const csv = ['Email,Zone', 'mei@example.com,asia/shanghai', 'bad@example.com,Atlantis/Capital', 'keep@example.com,'].join('\n');
    const outcome = expectSuccess(await api('POST', '/pub/team-member-actions/import', { csvContent: csv, mapping: { Email: 'email', Zone: 'timezone' }, dry_run: false })) as { creates: number; unchanged: number; errors: number; problems: Array<{ row: number; message: string }> };
    expect(outcome).to.deep.include({ creates: 1, unchanged: 1, errors: 1 });
    expect(outcome.problems).to.have.length(1);
    expect(outcome.problems[0]!.row).to.equal(3);
    expect(outcome.problems[0]!.message).to.match(/^timezone: expected an IANA time zone name/);
    expect(await find('mei@example.com')).to.have.property('timezone', 'Asia/Shanghai');
    expect(await find('keep@example.com')).to.have.property('timezone', 'Europe/Lisbon');
    expect(await find('bad@example.com')).to.deep.equal({});
  });
});
