import { expect } from 'chai';
import { addCustomField } from '../../services/directory/custom-fields.ts';
import { apiClient, call, expectFailure, expectSuccess, newAccount, newKey, type TestAccount } from '../helpers/api.ts';
import { outboxEvents } from '../helpers/directory.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type Outcome = { dry_run: boolean; rows: number; creates: number; updates: number; unchanged: number; errors: number; problems: Array<{ row: number; message: string }>; problems_truncated: boolean };
type Member = Record<string, unknown> & { id: number; email: string; departments: string[]; custom_fields: Record<string, string> };

const CSV = [
  'Work email,Given name,Family name,Team,Birthday,Visa,Notes',
  'ada@example.com,Ada,Lovelace,Engineering;Research,1990-12-10,2027-03-01,x',
  'bob@example.com,Bob,Bell,Kitchen,,,',
  'not-an-email,Carl,Cole,,,,',
  'dora@example.com,Dora,Dahl,,1990-13-45,,',
  'ADA@example.com,Ada,Again,,,,',
  ',Nobody,Noone,,,,',
].join('\n');
const MAPPING = { 'Work email': 'email', 'Given name': 'first_name', 'Family name': 'last_name', Team: 'departments', Birthday: 'date_of_birth', Visa: 'custom_fields.visa_expiry' };

describe('directory: import (POST /pub/team-member-actions/import)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
    await addCustomField(stack, { accountId: account.accountId, key: 'visa_expiry', label: 'Visa expiry', required: false });
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const runImport = async (body: Record<string, unknown>) => expectSuccess(await api('POST', '/pub/team-member-actions/import', body)) as Outcome;
  const count = () => stack.models.TeamMember.count({ where: { account_id: account.accountId } });
  const find = async (email: string) => expectSuccess(await api('GET', `/pub/team-member-actions/find?email=${encodeURIComponent(email)}`)) as Member;

  it('a dry run counts creates, updates, unchanged and errors (row numbers and messages) and writes nothing', async () => {
    const outcome = await runImport({ csvContent: CSV, mapping: MAPPING, dry_run: true });
    expect(outcome).to.deep.include({ dry_run: true, rows: 6, creates: 2, updates: 0, unchanged: 0, errors: 4, problems_truncated: false });
    expect(outcome.problems.map((p) => p.row)).to.deep.equal([4, 5, 6, 7]);
    expect(outcome.problems[0]!.message).to.match(/^email: /);
    expect(outcome.problems[1]!.message).to.match(/^date_of_birth: expected a date/);
    expect(outcome.problems[2]!.message).to.equal('email "ada@example.com" is already on row 2');
    expect(outcome.problems[3]!.message).to.match(/email is required/);
    expect(await count()).to.equal(0);
    expect(await stack.models.Department.count({ where: { account_id: account.accountId } })).to.equal(0);
    expect(await outboxEvents(stack.models, account.accountId)).to.deep.equal([]);
  });

  it('applies the mapping (custom field included) through the upsert rules and records no member event', async () => {
    const outcome = await runImport({ csvContent: CSV, mapping: MAPPING, dry_run: false });
    expect(outcome).to.deep.include({ dry_run: false, rows: 6, creates: 2, updates: 0, unchanged: 0, errors: 4 });
    const ada = await find('ada@example.com');
    expect(ada).to.deep.include({ first_name: 'Ada', last_name: 'Lovelace', departments: ['Engineering', 'Research'], date_of_birth: '1990-12-10', custom_fields: { visa_expiry: '2027-03-01' } });
    expect(await find('bob@example.com')).to.deep.include({ first_name: 'Bob', departments: ['Kitchen'], date_of_birth: null });
    expect(await count()).to.equal(2);

    // Again with one change: a blank cell leaves a field as it is; the match is by email, case-insensitively.
    const again = CSV.replace('bob@example.com,Bob,Bell', 'BOB@example.com,Robert,Bell');
    const second = await runImport({ csvContent: again, mapping: MAPPING, dry_run: false });
    expect(second).to.deep.include({ creates: 0, updates: 1, unchanged: 1, errors: 4 });
    expect(await find('bob@example.com')).to.deep.include({ first_name: 'Robert', departments: ['Kitchen'] });
    expect(await outboxEvents(stack.models, account.accountId)).to.deep.equal([]);
  });

  it('matches by employee_id when asked', async () => {
    const csv = 'id,mail,first\nE-7,eve@example.com,Eve\n';
    const mapping = { id: 'employee_id', mail: 'email', first: 'first_name' };
    expect(await runImport({ csvContent: csv, mapping, match_field: 'employee_id', dry_run: false })).to.deep.include({ creates: 1 });
    const renamed = await runImport({ csvContent: 'id,mail,first\nE-7,eve.new@example.com,Eve\n', mapping, match_field: 'employee_id', dry_run: false });
    expect(renamed).to.deep.include({ creates: 0, updates: 1 });
    expect(await find('eve.new@example.com')).to.deep.include({ employee_id: 'E-7' });
  });

  it('refuses a bad mapping (400), more than 50,000 rows (422), a key without directory: manage (403), writing nothing', async () => {
    const before = await count();
    const bad = async (mapping: Record<string, string>, pattern: RegExp) => {
      const messages = expectFailure(await api('POST', '/pub/team-member-actions/import', { csvContent: CSV, mapping, dry_run: false }), 400, 'invalid_parameter');
      expect(messages.join(' ')).to.match(pattern);
    };
    await bad({ 'Work email': 'email', Shoe: 'first_name' }, /no column "Shoe"/);
    await bad({ 'Work email': 'email', Notes: 'favourite_colour' }, /"favourite_colour" is not a member field/);
    await bad({ 'Work email': 'email', Notes: 'custom_fields.nope' }, /not a member field/);
    await bad({ 'Work email': 'email', Notes: 'email' }, /both fill email/);
    await bad({ 'Given name': 'first_name' }, /no column fills email/);
    await bad({}, /map at least one column/);
    expectFailure(await api('POST', '/pub/team-member-actions/import', { csvContent: CSV, mapping: MAPPING }), 400, 'invalid_parameter');

    const lines = ['email'];
    for (let i = 0; i < 50_001; i++) lines.push(`bulk${i}@example.com`);
    const tooMany = expectFailure(await api('POST', '/pub/team-member-actions/import', { csvContent: lines.join('\n'), mapping: { email: 'email' }, dry_run: false }), 422, 'csv_invalid');
    expect(tooMany[0]).to.match(/50,001 data rows; an import takes at most 50,000/);
    // The campaign upload's reader: bytes that are not text, and an unclosed quote, named by line (422).
    const notText = expectFailure(await api('POST', '/pub/team-member-actions/import', { csvContent: 'email\nana@example.com\nbo\uFFFD@example.com', mapping: { email: 'email' }, dry_run: true }), 422, 'csv_invalid');
    expect(notText[0]).to.match(/not valid UTF-8: line 3/);
    const unclosed = expectFailure(await api('POST', '/pub/team-member-actions/import', { csvContent: 'email\n"ana@example.com', mapping: { email: 'email' }, dry_run: true }), 422, 'csv_invalid');
    expect(unclosed[0]).to.match(/a quoted field is never closed \(record starting on line 2\)/);

    const viewer = await newKey(stack.models, account.accountId, { directory: 'view' });
    expectFailure(await api('POST', '/pub/team-member-actions/import', { csvContent: CSV, mapping: MAPPING, dry_run: false }, viewer.key), 403, 'key_out_of_scope');
    expect(await count()).to.equal(before);
  });

  it('counts seats across the file in a dry run', async () => {
    const free = await newAccount(stack.models, 'free');
    const csv = ['email', ...Array.from({ length: 27 }, (_, i) => `seat${i}@example.com`)].join('\n');
    const answer = expectSuccess(await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/import', { key: free.liveKey, body: { csvContent: csv, mapping: { email: 'email' }, dry_run: true } })) as Outcome;
    expect(answer).to.deep.include({ creates: 25, errors: 2 });
    expect(answer.problems[0]).to.deep.include({ row: 27 });
    expect(answer.problems[0]!.message).to.match(/seats/);
  });
});
