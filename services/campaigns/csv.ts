// A recipients CSV (campaign `uploadCsv`) read into rows, per-row errors and warnings: pure, saves nothing.
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { type ApiError, csvInvalid, csvTooLarge } from '../../lib/errors.ts';
import { BUILT_IN_TAGS } from '../ecards/templates.ts';

export const MAX_CSV_BYTES = 10 * 1024 * 1024;
export const MAX_CSV_ROWS = 50_000;
export const MAX_FIELD_LENGTH = 1_000;
// The tags the renderer fills itself (services/ecards/templates.ts, one list): a column of that name is ignored.
const BUILT_IN: readonly string[] = BUILT_IN_TAGS;

export type CsvRowErrorReason = 'missing_email' | 'invalid_email' | 'duplicate_email' | 'column_count' | 'field_too_long';
export interface CsvRow { email: string; name: string; first_name: string; last_name: string; merge_fields: Record<string, string> }
export interface CsvRowError { line: number; reason: CsvRowErrorReason }
export interface CsvResult {
  /** The keys of the columns read, in file order: `email`, `name`, `first_name`, `last_name` and merge keys. */
  headers: string[];
  rows: CsvRow[];
  errors: CsvRowError[];
  warnings: string[];
  total_rows: number;
  valid_rows: number;
}

const RECOGNIZED = new Set(['email', 'name', 'first_name', 'last_name']);
const email = z.email();
const LINE_BREAK = /\r\n|\r|\n/g;
// Undecodable bytes reach us as U+FFFD (or a lone surrogate) once the JSON body is a JS string.
const BAD_CHAR = /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const PARSE_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by more text',
  INVALID_OPENING_QUOTE: 'a quote appears inside an unquoted field',
};

const invalid = (message: string, line?: number): ApiError =>
  csvInvalid(message, line === undefined ? {} : { extra: { line } });
const countBreaks = (s: string): number => s.match(LINE_BREAK)?.length ?? 0;
// Characters are code points, so an emoji counts once; the spread only runs on long fields.
const tooLong = (s: string): boolean => s.length > MAX_FIELD_LENGTH && [...s].length > MAX_FIELD_LENGTH;

/** A header as a merge key: trimmed, lower case, every run of other characters one `_` ("Team-Name" → `team_name`). */
export function toMergeKey(header: string): string {
  return header.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '');
}

// The delimiter is whichever of `,` `;` tab the header line holds most of outside quotes (ties: that order).
function detectDelimiter(text: string): string {
  const counts = new Map([[',', 0], [';', 0], ['\t', 0]]);
  let quoted = false;
  let content = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '\r' || ch === '\n') {
      if (content) break;
      for (const key of counts.keys()) counts.set(key, 0); // a whitespace-only line before the header
      continue;
    } else if (counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
    if (ch.trim() !== '') content = true;
  }
  let best = ',';
  for (const [delimiter, n] of counts) if (n > counts.get(best)!) best = delimiter;
  return best;
}

/**
 * A CSV's non-blank records, each with the line it starts on (a quoted field may span lines): a UTF-8 BOM dropped,
 * the delimiter detected; 422 `csv_invalid` naming the line when it holds bytes that are not text or cannot be
 * parsed. What a campaign upload and a directory import share.
 */
export function readCsvRecords(text: string): Array<{ line: number; fields: string[] }> {
  const bad = BAD_CHAR.exec(text);
  if (bad) {
    const line = 1 + countBreaks(text.slice(0, bad.index));
    throw invalid(`The CSV is not valid UTF-8: line ${line} holds bytes that are not text`, line);
  }
  if (text.startsWith('\uFEFF')) text = text.slice(1);

  // Blank lines are kept as records, so each record spans one line plus the breaks inside its quoted
  // fields: csv-parse's own info.lines counts a CRLF inside quotes twice.
  let next = 1;
  const lines: number[] = [];
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: detectDelimiter(text),
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      on_record: (fields: string[]) => {
        lines.push(next);
        next += 1 + fields.reduce((n, field) => n + countBreaks(field), 0);
        return fields;
      },
    });
  } catch (err) {
    const problem = PARSE_PROBLEMS[(err as { code?: string }).code ?? ''] ?? 'it is not valid CSV';
    throw invalid(`The CSV cannot be read: ${problem} (record starting on line ${next})`, next);
  }

  // A whitespace-only line, or Excel's ",,,", is a blank line, not a row without an email.
  const data = records
    .map((fields, i) => ({ line: lines[i]!, fields }))
    .filter((record) => record.fields.some((field) => field.trim() !== ''));
  return data;
}

export function parseRecipientsCsv(text: string): CsvResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_CSV_BYTES) throw csvTooLarge('The CSV is larger than 10 MB');
  const data = readCsvRecords(text);
  const header = data.shift();
  if (!header) throw invalid('The CSV is empty');
  const warnings: string[] = [];
  const keys = header.fields.map(toMergeKey);
  const seen = new Map<string, string>();
  header.fields.forEach((raw, i) => {
    const key = keys[i]!;
    const label = raw.trim();
    if (!key) {
      warnings.push(`Column ${i + 1} has no usable name and was ignored`);
      return;
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) throw invalid(`Columns "${earlier}" and "${label}" both map to "${key}"`, header.line);
    seen.set(key, label);
    if (BUILT_IN.includes(key)) {
      warnings.push(`Column "${label}" is the built-in tag ${key} and was ignored`);
      keys[i] = '';
    }
  });
  if (!seen.has('email')) throw invalid(`The CSV has no email column (header on line ${header.line})`, header.line);
  if (!data.length) throw invalid('The CSV has a header but no data rows');
  if (data.length > MAX_CSV_ROWS) throw invalid(`The CSV has ${data.length} data rows; at most ${MAX_CSV_ROWS} are allowed`);

  const at = (key: string) => keys.indexOf(key);
  const [emailAt, nameAt, firstAt, lastAt] = ['email', 'name', 'first_name', 'last_name'].map(at) as [number, number, number, number];
  const mergeAt = keys.flatMap((key, i): Array<[string, number]> => (key && !RECOGNIZED.has(key) ? [[key, i]] : []));
  const rows: CsvRow[] = [];
  const errors: CsvRowError[] = [];
  const emails = new Set<string>();
  for (const { line, fields: raw } of data) {
    const fields = raw.map((field) => field.trim());
    const value = (i: number) => fields[i] ?? ''; // a short row has no value where the header has a column
    const address = value(emailAt).toLowerCase();
    let reason: CsvRowErrorReason | undefined;
    if (fields.length !== keys.length) reason = 'column_count';
    else if (fields.some(tooLong)) reason = 'field_too_long';
    else if (!address) reason = 'missing_email';
    else if (!email.safeParse(address).success) reason = 'invalid_email';
    else if (emails.has(address)) reason = 'duplicate_email';
    if (reason) errors.push({ line, reason });
    else {
      emails.add(address);
      const [first_name, last_name] = [value(firstAt), value(lastAt)];
      const merge_fields = Object.fromEntries(mergeAt.map(([key, i]) => [key, value(i)]));
      rows.push({ email: address, name: value(nameAt) || `${first_name} ${last_name}`.trim(), first_name, last_name, merge_fields });
    }
  }
  return { headers: keys.filter(Boolean), rows, errors, warnings, total_rows: data.length, valid_rows: rows.length };
}
