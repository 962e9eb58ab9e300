// A directory import's CSV read into its header and data rows (each with the line it starts on): pure, saves nothing.
// The size and row limits are the campaign upload's (10 MB, 50,000 data rows).
import { csvInvalid, csvTooLarge } from '../../lib/errors.ts';
import { MAX_CSV_BYTES, MAX_CSV_ROWS, readCsvRecords } from '../campaigns/csv.ts';

export const MAX_IMPORT_ROWS = MAX_CSV_ROWS;

export interface ImportCsv {
  /** The header's column names, trimmed, in file order. */
  headers: string[];
  rows: Array<{ line: number; cells: string[] }>;
}

/** The CSV's header and rows: 413 past 10 MB, 422 when it is not text or cannot be read (readCsvRecords), has no rows, repeats a column name or has more than 50,000 rows. */
export function readImportCsv(text: string): ImportCsv {
  if (Buffer.byteLength(text, 'utf8') > MAX_CSV_BYTES) throw csvTooLarge('The CSV is larger than 10 MB');
  const data = readCsvRecords(text).map(({ line, fields }) => ({ line, cells: fields }));
  const header = data.shift();
  if (!header) throw csvInvalid('The CSV is empty');
  const headers = header.cells.map((h) => h.trim());
  const seen = new Set<string>();
  for (const name of headers) {
    if (name === '') continue;
    if (seen.has(name)) throw csvInvalid(`Two columns of the CSV are named "${name}": give each column its own name`);
    seen.add(name);
  }
  if (!data.length) throw csvInvalid('The CSV has a header but no data rows');
  if (data.length > MAX_IMPORT_ROWS) {
    throw csvInvalid(`The CSV has ${data.length.toLocaleString('en')} data rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')} (split the file)`);
  }
  return { headers, rows: data };
}
