// Reads a JSON request body within a size limit: 415 for another type, 413 over the limit, 400 when nested deeper
// than MAX_JSON_DEPTH (before anything else looks at it) or malformed.
import type { Context } from 'koa';
import { type ApiError, bodyNotObject, bodyTooDeep as bodyTooDeepError, malformedJson, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.ts';

function hasBody(ctx: Context): boolean {
  return ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
}

function tooLarge(limit: number): ApiError {
  // The rest of the body is never read, so the connection cannot be reused.
  return payloadTooLarge(`The request body is larger than this endpoint's limit of ${limit} bytes`, {
    headers: { Connection: 'close' },
  });
}

/** The raw body, within the limit (413 past it). */
export async function readBodyBytes(ctx: Context, limit: number): Promise<Buffer> {
  if (ctx.request.length > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const readText = async (ctx: Context, limit: number): Promise<string> => (await readBodyBytes(ctx, limit)).toString('utf8');

/** A form post (`application/x-www-form-urlencoded`): its fields, the last value of a repeated one winning. */
export async function readFormBody(ctx: Context, limit: number): Promise<Record<string, string>> {
  if (!hasBody(ctx)) return {};
  if (!ctx.request.is('application/x-www-form-urlencoded')) {
    throw unsupportedMediaType('Send the form as application/x-www-form-urlencoded');
  }
  return Object.fromEntries(new URLSearchParams(await readText(ctx, limit)));
}

/** Arrays and objects nested deeper than this are refused, so no walk over a body needs more than this many frames. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the characters, counting brackets
 * outside strings (it does not validate; JSON.parse does that next).
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function bodyTooDeep(): ApiError {
  return bodyTooDeepError(`The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
}

/** The parsed body: always an object (`{}` when there is none). */
export async function readJsonBody(ctx: Context, limit: number): Promise<Record<string, unknown>> {
  if (!hasBody(ctx)) return {};
  if (!ctx.request.is('application/json', '+json')) {
    throw unsupportedMediaType('Send the body as JSON with Content-Type: application/json');
  }
  const text = await readText(ctx, limit);
  if (text.trim() === '') return {};
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw bodyTooDeep();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformedJson('The request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw bodyNotObject('The request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
