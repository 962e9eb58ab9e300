// The code file upload as a multipart form (`brand`, `denomination`, `file`), read in this one place for the page's
// form and the console API (each checks the origin and the CSRF token its own way): the body within its limit,
// parsed by the web platform's `Request.formData()` (no multipart package), then the fields as CodesBody's input.
import type { Context } from 'koa';
import type { z } from 'zod';
import { malformedForm, unsupportedMediaType } from '../../../lib/errors.ts';
import { readBodyBytes } from '../../http/body.ts';
import { parseInput } from '../../http/validation.ts';
import { type CodesBody, CodesForm } from './schema.ts';

/** A code file: 4 MiB of text as the schema allows, with room for the multipart envelope. */
const UPLOAD_LIMIT = 5 * 1024 * 1024;

export const isUpload = (ctx: Context) => Boolean(ctx.request.is('multipart/form-data'));

/** The form, or 415 (another type), 413 (over the limit), 400 (not a valid multipart body). */
export async function readCodesUpload(ctx: Context): Promise<FormData> {
  if (!isUpload(ctx)) throw unsupportedMediaType('Send the code file as multipart/form-data');
  const body = await readBodyBytes(ctx, UPLOAD_LIMIT);
  try {
    return await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': ctx.get('content-type') }, body }).formData();
  } catch {
    throw malformedForm('The upload is not a valid multipart form');
  }
}

/** The form's fields as CodesBody (a blank field is missing: 422; the file's text as `text`). */
export async function codesOfUpload(form: FormData): Promise<z.output<typeof CodesBody>> {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' && value.trim() !== '' ? value : undefined;
  };
  const file = form.get('file');
  // A file input sends a file; a plain field holding the text (curl -F file=...) is taken as well.
  const text = typeof file === 'string' ? file : await file?.text();
  const denomination = field('denomination');
  const parsed = parseInput(CodesForm, { brand: field('brand'), denomination: denomination === undefined ? undefined : Number(denomination), file: text || undefined }, 'body');
  return { brand: parsed.brand, denomination: parsed.denomination, text: parsed.file };
}
