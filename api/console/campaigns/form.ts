// Reading the campaign wizard's forms: ticked checkboxes share a name (one field each), so they are joined by
// commas; the recipients step may come as multipart with a CSV file, whose text becomes the `csv_content` field
// (a file wins over pasted text). Either way the CSRF token is one of the fields.
import type { Context } from 'koa';
import { malformedForm } from '../../../lib/errors.ts';
import { MAX_CSV_BYTES } from '../../../services/campaigns/csv.ts';
import { readBodyBytes, readFormBody } from '../../http/body.ts';

/** Room for the CSV, the ticked members and the other fields. */
export const RECIPIENTS_BODY_LIMIT = MAX_CSV_BYTES + 2 * 1024 * 1024;

function joined(entries: Iterable<[string, string]>, lists: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  const many: Record<string, string[]> = Object.fromEntries(lists.map((name) => [name, []]));
  for (const [name, value] of entries) {
    if (name in many) many[name]!.push(value);
    else fields[name] = value;
  }
  for (const name of lists) fields[name] = many[name]!.join(',');
  return fields;
}

/** An urlencoded form whose `lists` fields may repeat. */
export function readListBody(lists: readonly string[]) {
  return async (ctx: Context, limit: number): Promise<Record<string, string>> => {
    if (!ctx.request.is('application/x-www-form-urlencoded')) return readFormBody(ctx, limit);
    return joined(new URLSearchParams((await readBodyBytes(ctx, limit)).toString('utf8')), lists);
  };
}

/** The recipients step: urlencoded, or multipart with the CSV as `csv_file`. */
export function readRecipientsBody(lists: readonly string[]) {
  const urlencoded = readListBody(lists);
  return async (ctx: Context, limit: number): Promise<Record<string, string>> => {
    if (!ctx.request.is('multipart/form-data')) return urlencoded(ctx, limit);
    const body = await readBodyBytes(ctx, limit);
    let data: FormData;
    try {
      data = await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': ctx.get('content-type') }, body }).formData();
    } catch {
      throw malformedForm('The form is not a valid multipart form');
    }
    const texts: Array<[string, string]> = [];
    let file: string | undefined;
    for (const [name, value] of data) {
      if (typeof value === 'string') texts.push([name, value]);
      // An empty file input still sends a part: no name, no bytes.
      else if (name === 'csv_file' && value.size > 0) file = new TextDecoder('utf-8').decode(await value.arrayBuffer());
    }
    const fields = joined(texts, lists);
    if (file !== undefined) fields.csv_content = file;
    return fields;
  };
}
