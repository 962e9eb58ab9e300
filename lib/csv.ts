// CSV as spreadsheets read it: UTF-8 with a byte-order mark (accents read right), CRLF lines, and every cell a
// spreadsheet would take for a formula (starting with =, +, - or @) prefixed with an apostrophe.
export const CSV_BOM = '\uFEFF';

/** One cell: formula-looking text defused, quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: Array<string | number | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;
