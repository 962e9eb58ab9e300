// Upserts without the account lock (issue 35, item 5), from two API processes on one database: concurrent upserts
// of one member keep every field and record each change once; seats are taken by the seats row's conditional update
// (never past the plan's limit), given back by deactivation and erasure, and the row always equals the active count.
import { expect } from 'chai';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { outboxEvents } from '../helpers/directory.ts';
import { testEnv, testStack, type TestStack } from '../helpers/stack.ts';
import { startApiChild } from '../helpers/worker-child.ts';

type Member = Record<string, unknown> & { id: number; email: string; disabled: number };

const SEATS = 5;

describe('directory: upserts from two API processes, and the seats row', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let urls: [string, string];
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    const env = () => testEnv({ PLAN_SEATS: `free=${SEATS},pro=250,enterprise=5000`, LOG_LEVEL: 'warn', TEMPORAL_TASK_QUEUE: stack.taskQueue });
    const [a, b] = await Promise.all([startApiChild(await env()), startApiChild(await env())]);
    urls = [a.url, b.url];
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'free');
  });
  // Calls alternate between the two processes.
  const onProcess = (i: number, path: string, body: Record<string, unknown>): Promise<ApiResponse> =>
    apiClient(urls[i % 2]!, account.liveKey).api('POST', `/pub/team-member-actions${path}`, body);
  const find = async (email: string) => expectSuccess(await call(stack.url, 'GET', `/v2/api/pub/team-member-actions/find?email=${email}`, { key: account.liveKey })) as Member;
  const seatsRow = async () => (await stack.models.MemberSeats.findByPk(account.accountId))?.used;
  const activeCount = () => stack.models.TeamMember.count({ where: { account_id: account.accountId, disabled: false } });

  // One field each, all different: together they set every field an upsert can.
  const CHANGES: Array<Record<string, unknown>> = [
    { employee_id: 'E-7' },
    { first_name: 'Grace' },
    { last_name: 'Hopper' },
    { job_position: 'Rear Admiral' },
    { departments: ['Navy'] },
    { date_of_birth: '1906-12-09' },
    { hire_date: '1943-12-01' },
    { profile_image_url: 'https://example.com/grace.png' },
    { timezone: 'America/New_York' },
    { custom_fields: { badge_expiry: '2030-01-01' } },
  ];
  const EXPECTED = {
    employee_id: 'E-7',
    first_name: 'Grace',
    last_name: 'Hopper',
    job_position: 'Rear Admiral',
    departments: ['Navy'],
    date_of_birth: '1906-12-09',
    hire_date: '1943-12-01',
    profile_image_url: 'https://example.com/grace.png',
    timezone: 'America/New_York',
    custom_fields: { badge_expiry: '2030-01-01' },
  };

  it('concurrent upserts of one new person, each of another field: one member with every field, one created event and one updated event per other call', async () => {
    await addCustomField(stack, { accountId: account.accountId, key: 'badge_expiry', label: 'Badge', required: false });
    const answers = await Promise.all(CHANGES.map((change, i) => onProcess(i, '/upsert', { email: 'grace@example.com', ...change })));
    const actions = answers.map((res) => (expectSuccess(res) as { action: string }).action);
    expect(actions.filter((a) => a === 'created')).to.have.length(1);
    expect(actions.filter((a) => a === 'updated')).to.have.length(CHANGES.length - 1);
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(1);
    expect(await find('grace@example.com')).to.deep.include(EXPECTED);

    const events = await outboxEvents(stack.models, account.accountId);
    expect(events.map((e) => e.type).sort()).to.deep.equal(['team_member_created', ...Array<string>(CHANGES.length - 1).fill('team_member_updated')]);
    // Each field is reported changed by exactly one event (the creator's carries its field in the member).
    const reported = events.flatMap((e) => e.body.changed_fields ?? []);
    expect(new Set(reported).size).to.equal(reported.length);
    // The last event recorded shows the member as it ended (events are recorded in the order of the row's writes).
    expect(events.at(-1)!.body.member).to.deep.include({ first_name: 'Grace', last_name: 'Hopper', job_position: 'Rear Admiral', departments: ['Navy'], timezone: 'America/New_York' });
    expect(await seatsRow()).to.equal(1);
  });

  it('concurrent updates of one member, each of another field, lose none of them', async () => {
    await addCustomField(stack, { accountId: account.accountId, key: 'badge_expiry', label: 'Badge', required: false });
    expectSuccess(await onProcess(0, '/upsert', { email: 'grace@example.com' }));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(CHANGES.map((change, i) => onProcess(i + round, '/upsert', { email: 'grace@example.com', ...change, job_position: undefined, ...(i === 3 ? { job_position: `Title ${round}` } : {}) })));
      for (const res of answers) expectSuccess(res);
      expect(await find('grace@example.com')).to.deep.include({ ...EXPECTED, job_position: `Title ${round}` });
    }
    const events = await outboxEvents(stack.models, account.accountId);
    // Round 0 changes every field, rounds 1 and 2 only the title.
    expect(events.filter((e) => e.type === 'team_member_updated')).to.have.length(CHANGES.length + 2);
    expect(await stack.models.TeamMember.count({ where: { account_id: account.accountId } })).to.equal(1);
  });

  it('concurrent creates at the seat limit never exceed it', async () => {
    expectSuccess(await onProcess(0, '/upsert', { email: 'first@example.com' }));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => onProcess(i, '/upsert', { email: `racer${i}@example.com` })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(SEATS - 1);
    for (const res of answers.filter((r) => r.status !== 200)) expectFailure(res, 403, 'seat_limit_reached');
    expect(await activeCount()).to.equal(SEATS);
    expect(await seatsRow()).to.equal(SEATS);
    expect((await outboxEvents(stack.models, account.accountId)).filter((e) => e.type === 'team_member_created')).to.have.length(SEATS);
  });

  it('deactivation and erasure of an active member give its seat back; erasing a deactivated one frees none', async () => {
    for (let i = 0; i < SEATS; i++) expectSuccess(await onProcess(i, '/upsert', { email: `m${i}@example.com` }));
    expectFailure(await onProcess(0, '/upsert', { email: 'extra1@example.com' }), 403, 'seat_limit_reached');
    expectSuccess(await onProcess(1, '/deactivate', { email: 'm0@example.com' }));
    expect(await seatsRow()).to.equal(SEATS - 1);
    expectSuccess(await onProcess(0, '/upsert', { email: 'extra1@example.com' }));
    expectFailure(await onProcess(1, '/upsert', { email: 'extra2@example.com' }), 403, 'seat_limit_reached');
    // The deactivated member's erasure frees nothing; an active one's does.
    expectSuccess(await onProcess(0, '/delete', { email: 'm0@example.com' }));
    expectFailure(await onProcess(1, '/upsert', { email: 'extra2@example.com' }), 403, 'seat_limit_reached');
    expectSuccess(await onProcess(0, '/delete', { email: 'm1@example.com' }));
    expect((await find('m2@example.com')).disabled).to.equal(0);
    expectSuccess(await onProcess(1, '/upsert', { email: 'extra2@example.com' }));
    expect(await seatsRow()).to.equal(SEATS);
    expect(await activeCount()).to.equal(SEATS);
  });

  it('the seats row equals the active count after a mixed sequence, imports and refusals included', async () => {
    const steps: Array<[string, Record<string, unknown>]> = [
      ['/upsert', { email: 'a@example.com' }],
      ['/upsert', { email: 'b@example.com', first_name: 'B' }],
      ['/upsert', { email: 'b@example.com', first_name: 'Bee' }],
      ['/deactivate', { email: 'a@example.com' }],
      ['/deactivate', { email: 'a@example.com' }],
      ['/import', { csvContent: 'email\nc@example.com\nd@example.com\nb@example.com\ne@example.com\nf@example.com\nh@example.com', mapping: { email: 'email' }, dry_run: false }],
      ['/reactivate', { email: 'a@example.com' }],
      ['/upsert', { email: 'a@example.com', dry_run: true, last_name: 'Dry' }],
      ['/delete', { email: 'c@example.com' }],
      ['/reactivate', { email: 'a@example.com' }],
      ['/upsert', { email: 'g@example.com' }],
      ['/deactivate', { email: 'b@example.com' }],
      ['/upsert', { email: 'b@example.com', last_name: 'Still off' }],
      ['/reactivate', { email: 'b@example.com' }],
    ];
    const outcomes: number[] = [];
    for (const [i, [path, body]] of steps.entries()) {
      const res = await onProcess(i, path, body);
      outcomes.push(res.status);
      expect(await seatsRow(), `after ${path} ${JSON.stringify(body)}`).to.equal(await activeCount());
    }
    // Refused on the way: a reactivation and a create at the limit (the import's h is a problem row of a 200).
    expect(outcomes).to.include(403);
    expect(await activeCount()).to.equal(SEATS);
  });
});
