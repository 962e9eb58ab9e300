import { expect } from 'chai';
import { ApiError } from '../../lib/errors.ts';
import {
  MAX_CSV_BYTES, MAX_CSV_ROWS, parseRecipientsCsv, toMergeKey,
} from '../../services/campaigns/csv.ts';
import { BUILT_IN_TAGS } from '../../services/ecards/templates.ts';

function expectApiError(fn: () => unknown, status: number, code: string, message?: RegExp, line?: number): void {
  expect(fn).to.throw(ApiError).that.satisfies((err: ApiError) => {
    expect([err.status, err.code]).to.deep.equal([status, code]);
    if (message) expect(err.message).to.match(message);
    if (line !== undefined) expect(err.extra.line).to.equal(line);
    return true;
  });
}

const csv = (...lines: string[]) => lines.join('\n');

describe('parseRecipientsCsv', () => {
  it('reads quoted commas, newlines and doubled quotes, and numbers the row after a multi-line record by its physical line', () => {
    const result = parseRecipientsCsv(csv(
      'email,name,note',
      'a@x.com,"Doe, Jane","line one',
      'line two',
      'line three"',
      'b@x.com,"Say ""hi""",plain',
      'not-an-email,Bob,x',
    ));
    expect(result.rows).to.deep.equal([
      { email: 'a@x.com', name: 'Doe, Jane', first_name: '', last_name: '', merge_fields: { note: 'line one\nline two\nline three' } },
      { email: 'b@x.com', name: 'Say "hi"', first_name: '', last_name: '', merge_fields: { note: 'plain' } },
    ]);
    expect(result.errors).to.deep.equal([{ line: 6, reason: 'invalid_email' }]);
    expect([result.total_rows, result.valid_rows]).to.deep.equal([3, 2]);
  });

  it('counts a CRLF inside a quoted field as one line break', () => {
    const text = 'email,note\r\na@x.com,"one\r\ntwo\r\nthree"\r\n\r\nbad,x\r\n';
    expect(parseRecipientsCsv(text).errors).to.deep.equal([{ line: 6, reason: 'invalid_email' }]);
  });

  it('strips a leading BOM, so a quoted first header still reads', () => {
    const result = parseRecipientsCsv('\uFEFF"Email",Name\na@x.com,Ann\n');
    expect(result.headers).to.deep.equal(['email', 'name']);
    expect(result.rows[0]).to.include({ email: 'a@x.com', name: 'Ann' });
  });

  for (const [label, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR only', '\r']] as const) {
    it(`reads ${label} line endings, quoted line breaks included, with the same lines`, () => {
      const text = ['email,first_name,last_name', 'a@x.com,Ann,"Lee', 'Smith"', 'b@x.com,Bo,Ek', '', 'oops,C,D', ''].join(eol);
      const result = parseRecipientsCsv(text);
      expect(result.rows.map((row) => [row.email, row.name, row.last_name])).to.deep.equal([
        ['a@x.com', `Ann Lee${eol}Smith`, `Lee${eol}Smith`],
        ['b@x.com', 'Bo Ek', 'Ek'],
      ]);
      expect(result.errors).to.deep.equal([{ line: 6, reason: 'invalid_email' }]);
      expect(result.total_rows).to.equal(3);
    });
  }

  it('reads a file that mixes line endings, each ending one line', () => {
    const result = parseRecipientsCsv('email\na@x.com\r\nb@x.com\rbad\n');
    expect(result.rows.map((row) => row.email)).to.deep.equal(['a@x.com', 'b@x.com']);
    expect(result.errors).to.deep.equal([{ line: 4, reason: 'invalid_email' }]);
  });

  it('detects `;` and tab delimiters from the header line, outside quotes', () => {
    const semi = parseRecipientsCsv(csv('email;name;city', 'a@x.com;"Doe; Jane";Paris, France'));
    expect(semi.rows[0]).to.deep.include({ name: 'Doe; Jane', merge_fields: { city: 'Paris, France' } });
    const tab = parseRecipientsCsv(csv('email\tname\tcity', 'a@x.com\tJane, Doe\t"Rome;\tIT"'));
    expect(tab.rows[0]).to.deep.include({ name: 'Jane, Doe', merge_fields: { city: 'Rome;\tIT' } });
    // Quoted commas in the header do not outvote the real delimiter.
    const quotedHeader = parseRecipientsCsv(csv('email;"a,b,c"', 'a@x.com;1'));
    expect(quotedHeader.rows[0]!.merge_fields).to.deep.equal({ a_b_c: '1' });
    expect(parseRecipientsCsv(csv('email', 'a@x.com')).rows).to.have.length(1);
  });

  it('refuses a file without an email column', () => {
    expectApiError(() => parseRecipientsCsv(csv('name,mail', 'Ann,a@x.com')), 422, 'csv_invalid', /no email column/, 1);
  });

  it('drops bad rows only, reporting each by line and reason', () => {
    const long = 'x'.repeat(1001);
    const result = parseRecipientsCsv(csv(
      'Email,Name,Note',
      'ok@x.com,Ok,',
      ',No Email,',
      'not-an-email,Bad,',
      'OK@X.com,Dup,',
      'short@x.com,Short',
      `long@x.com,Long,${long}`,
      `fine@x.com,Fine,${'é'.repeat(1000)}`,
      'extra@x.com,Extra,a,b',
    ));
    expect(result.errors).to.deep.equal([
      { line: 3, reason: 'missing_email' },
      { line: 4, reason: 'invalid_email' },
      { line: 5, reason: 'duplicate_email' },
      { line: 6, reason: 'column_count' },
      { line: 7, reason: 'field_too_long' },
      { line: 9, reason: 'column_count' },
    ]);
    expect(result.rows.map((row) => row.email)).to.deep.equal(['ok@x.com', 'fine@x.com']);
    expect([result.total_rows, result.valid_rows]).to.deep.equal([8, 2]);
    // A short row missing the email column itself is a column_count, not a crash.
    expect(parseRecipientsCsv(csv('name,email', 'Ann')).errors).to.deep.equal([{ line: 2, reason: 'column_count' }]);
  });

  it('lower-cases emails and treats a later differently-cased one as a duplicate', () => {
    const result = parseRecipientsCsv(csv('email', ' Ann@Example.COM ', 'ann@example.com', 'bad@', 'ANN@example.com'));
    expect(result.rows.map((row) => row.email)).to.deep.equal(['ann@example.com']);
    expect(result.errors).to.deep.equal([
      { line: 3, reason: 'duplicate_email' }, { line: 4, reason: 'invalid_email' }, { line: 5, reason: 'duplicate_email' },
    ]);
  });

  it('refuses two headers that map to the same key', () => {
    expectApiError(() => parseRecipientsCsv(csv('email,Team Name,team_name', 'a@x.com,a,b')), 422, 'csv_invalid', /"Team Name" and "team_name" both map to "team_name"/);
    expectApiError(() => parseRecipientsCsv(csv('Email,EMAIL ', 'a@x.com,b@x.com')), 422, 'csv_invalid', /both map to "email"/);
    expectApiError(() => parseRecipientsCsv(csv('email,First Name,first_name', 'a@x.com,a,b')), 422, 'csv_invalid', /both map to "first_name"/);
  });

  it('ignores a built-in tag column with a warning', () => {
    expect(BUILT_IN_TAGS).to.include.members(['recipient_name', 'sender_email', 'ecard_link']);
    const result = parseRecipientsCsv(csv('email,Sender Name,city,ecard_link', 'a@x.com,Mallory,Oslo,https://evil'));
    expect(result.warnings).to.have.length(2);
    expect(result.warnings[0]).to.match(/Sender Name.*sender_name.*ignored/);
    expect(result.headers).to.deep.equal(['email', 'city']);
    expect(result.rows[0]!.merge_fields).to.deep.equal({ city: 'Oslo' });
  });

  it('snake-cases other columns into merge keys and builds the name', () => {
    expect(toMergeKey('  Favourite Color ')).to.equal('favourite_color');
    expect(toMergeKey('Team-Name')).to.equal('team_name');
    expect(toMergeKey('__Plan (2026)!')).to.equal('plan_2026');
    const result = parseRecipientsCsv(csv(
      ' EMAIL , First Name,LAST_NAME,Favourite Color,Team-Name',
      'a@x.com,  Ann , Lee ,  Blue ,Ops',
      'b@x.com,Bo,,,',
    ));
    expect(result.headers).to.deep.equal(['email', 'first_name', 'last_name', 'favourite_color', 'team_name']);
    expect(result.rows).to.deep.equal([
      { email: 'a@x.com', name: 'Ann Lee', first_name: 'Ann', last_name: 'Lee', merge_fields: { favourite_color: 'Blue', team_name: 'Ops' } },
      { email: 'b@x.com', name: 'Bo', first_name: 'Bo', last_name: '', merge_fields: { favourite_color: '', team_name: '' } },
    ]);
    const named = parseRecipientsCsv(csv('email,name,first_name,last_name', 'a@x.com,Dr. Ann,Ann,Lee', 'b@x.com,,Bo,Ek'));
    expect(named.rows.map((row) => row.name)).to.deep.equal(['Dr. Ann', 'Bo Ek']);
  });

  it('skips blank lines without counting them, and a leading blank line does not hide the header', () => {
    const result = parseRecipientsCsv(csv('', 'email,city', '', 'a@x.com,Oslo', '   ', ',', 'b@x.com,Rome', ''));
    expect(result.rows.map((row) => row.email)).to.deep.equal(['a@x.com', 'b@x.com']);
    expect([result.total_rows, result.errors.length]).to.deep.equal([2, 0]);
  });

  it(`accepts ${MAX_CSV_ROWS} data rows and refuses one more`, () => {
    const rows = Array.from({ length: MAX_CSV_ROWS }, (_, i) => `u${i}@x.com`);
    expect(parseRecipientsCsv(['email', ...rows].join('\n')).valid_rows).to.equal(MAX_CSV_ROWS);
    expectApiError(() => parseRecipientsCsv(['email', ...rows, 'one@more.com'].join('\n')), 422, 'csv_invalid', /50001 data rows/);
  });

  it('refuses more than 10 MB of UTF-8 with 413, counting bytes, not characters', () => {
    const head = 'email\na@x.com\n';
    const atLimit = head + ' '.repeat(MAX_CSV_BYTES - head.length);
    expect(parseRecipientsCsv(atLimit).valid_rows).to.equal(1);
    expectApiError(() => parseRecipientsCsv(`${atLimit} `), 413, 'csv_too_large');
    expectApiError(() => parseRecipientsCsv(head + 'é'.repeat((MAX_CSV_BYTES - head.length) / 2 + 1)), 413, 'csv_too_large');
  });

  it('refuses an unclosed quote with 422 naming the line its record starts on', () => {
    expectApiError(() => parseRecipientsCsv(csv('email,name', 'a@x.com,Ann', 'b@x.com,"Bo', 'c@x.com,Cy')), 422, 'csv_invalid', /never closed.*line 3/, 3);
    expectApiError(() => parseRecipientsCsv(csv('email,name', 'a@x.com,"A"nn')), 422, 'csv_invalid', /line 2/, 2);
  });

  it('refuses an empty file, a blank one and a header alone', () => {
    expectApiError(() => parseRecipientsCsv(''), 422, 'csv_invalid', /empty/);
    expectApiError(() => parseRecipientsCsv('\uFEFF\n\r\n  \n'), 422, 'csv_invalid', /empty/);
    expectApiError(() => parseRecipientsCsv('email,name\n'), 422, 'csv_invalid', /no data rows/);
    expectApiError(() => parseRecipientsCsv('email,name\n\n,\n'), 422, 'csv_invalid', /no data rows/);
  });

  it('refuses text that was not valid UTF-8, naming the line', () => {
    expectApiError(() => parseRecipientsCsv(csv('email,name', 'a@x.com,Ann', 'b@x.com,B\uFFFDo')), 422, 'csv_invalid', /UTF-8.*line 3/, 3);
    expectApiError(() => parseRecipientsCsv('email\r\n\r\nb@x.com\uD800\r\n'), 422, 'csv_invalid', /line 3/, 3);
    // A proper surrogate pair (an emoji) is fine.
    expect(parseRecipientsCsv(csv('email,name', 'a@x.com,Ann 🎉')).rows[0]!.name).to.equal('Ann 🎉');
  });
});
