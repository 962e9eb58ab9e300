// The decisions' list of bad inputs, each applied to one field of a valid request (or to the request as a whole),
// and the request turned into HTTP: a URL, headers and the body's exact text.
import { allows, maxLengthOf, type Field, type Schema } from './openapi.ts';

export const MUTATIONS = [
  'missing',
  'wrong_type',
  'null',
  'empty',
  'long_string',
  'nul',
  'rtl',
  'emoji',
  'lone_surrogate',
  'minus_one',
  'above_2_53',
  'huge_float',
  'array_object',
  'extra_fields',
  'wrong_content_type',
  'malformed_json',
  'too_deep',
  'over_max_length',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** A valid request of an operation, before HTTP. */
export interface RequestParts {
  method: string;
  path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A value whose text differs from what JSON.stringify or encodeURIComponent would make of a JS value. */
class Literal {
  constructor(
    readonly json: string,
    readonly url: string,
  ) {}
}
/** Query text sent as it is (a malformed percent-encoding). */
class RawQuery {
  constructor(readonly text: string) {}
}
/** A query parameter sent more than once (Koa reads it as an array). */
class Repeated {
  constructor(readonly values: unknown[]) {}
}

const ONE_MB = 'x'.repeat(1024 * 1024);
/** A JSON body of objects nested one level past the service's limit of 64. */
export const TOO_DEEP = `${'{"a":'.repeat(64)}{}${'}'.repeat(64)}`;
// Node refuses a request line past its 16 KB header limit before any application code, so URLs carry 8 KB.
const LONG_URL_VALUE = 'x'.repeat(8 * 1024);
const BIG = new Literal('9007199254740993', '9007199254740993');
// JSON's escape reaches the server as a lone surrogate; in a URL, its UTF-8 bytes, which are not valid UTF-8.
const LONE = new Literal('"a\\ud800b\\udfff"', 'a%ED%A0%80b');
const SERVER_OWNED = { fuzz_extra: 'x', account_id: 1, ownerid: 1, vanity_id: 'fuzz', createdat: '2000-01-01T00:00:00.000Z' };

function wrongType(schema: Schema, place: Field['place']): unknown {
  if (place !== 'body') return allows(schema, 'integer') || allows(schema, 'number') || allows(schema, 'boolean') ? 'not-a-number' : new Repeated(['a', 'b']);
  if (allows(schema, 'string')) return allows(schema, 'number') || allows(schema, 'integer') ? { an: 'object' } : 12345;
  return 'text';
}

function empty(schema: Schema, place: Field['place']): unknown {
  if (place !== 'body') return '';
  if (allows(schema, 'array')) return [];
  if (allows(schema, 'object')) return {};
  return '';
}

function swapped(current: unknown, place: Field['place']): unknown {
  if (place !== 'body') return new Repeated([current ?? '1', current ?? '1']);
  if (Array.isArray(current)) return Object.fromEntries(current.map((v, i) => [String(i), v as unknown]));
  if (current !== null && typeof current === 'object') return [current];
  return [current ?? 'x'];
}

const REMOVE = Symbol('remove');

/** The value the mutation puts in the field (REMOVE deletes it). */
function mutatedValue(mutation: Mutation, field: Field, current: unknown): unknown {
  switch (mutation) {
    case 'missing':
      return REMOVE;
    case 'wrong_type':
      return wrongType(field.schema, field.place);
    case 'null':
      return field.place === 'body' ? null : 'null';
    case 'empty':
      return empty(field.schema, field.place);
    case 'long_string':
      return field.place === 'body' ? ONE_MB : LONG_URL_VALUE;
    case 'over_max_length': {
      // One character over the published maximum; without one, as long_string.
      const max = maxLengthOf(field.schema);
      return max === undefined ? (field.place === 'body' ? ONE_MB : LONG_URL_VALUE) : 'x'.repeat(max + 1);
    }
    case 'nul':
      return 'a\u0000b';
    case 'rtl':
      return '\u202Eשלום مرحبا\u202C';
    case 'emoji':
      return '🎉👩‍👩‍👧‍👦🏳️‍🌈';
    case 'lone_surrogate':
      return LONE;
    case 'minus_one':
      return -1;
    case 'above_2_53':
      return BIG;
    case 'huge_float':
      return 1e308;
    case 'array_object':
      return swapped(current, field.place);
    default:
      return current;
  }
}

function getIn(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** Sets (or removes) the value at path, making the containers on the way (an array where the key is `0`). */
function setIn(root: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> = root;
  for (const [i, key] of path.slice(0, -1).entries()) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = path[i + 1] === '0' ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === REMOVE) delete node[last];
  else node[last] = value;
}

/** The request with one mutation applied: to `field`, or, without one, as an undocumented query parameter. */
export function mutate(parts: RequestParts, mutation: Mutation, field: Field | undefined): { parts: RequestParts; headers: Record<string, string>; rawBody?: string } {
  const next: RequestParts = structuredClone(parts);
  if (mutation === 'wrong_content_type') return { parts: next, headers: { 'Content-Type': 'text/plain' } };
  if (mutation === 'malformed_json') {
    // Without a body, the query is what there is to break.
    if (next.body === undefined) next.query.malformed = new RawQuery('%E0%A4%A=%');
    return { parts: next, headers: {}, ...(next.body === undefined ? {} : { rawBody: '{"broken": [1, 2,' }) };
  }
  if (mutation === 'too_deep') {
    if (next.body === undefined) next.query.fuzz = TOO_DEEP;
    return { parts: next, headers: {}, ...(next.body === undefined ? {} : { rawBody: TOO_DEEP }) };
  }
  if (mutation === 'extra_fields') {
    if (next.body === undefined || field?.place === 'query' || field?.place === 'path') Object.assign(next.query, { fuzz_extra: 'x', account_id: '1' });
    else {
      Object.assign(next.body, SERVER_OWNED);
      const parent = field ? getIn(next.body, field.path.slice(0, -1)) : undefined;
      if (parent !== null && typeof parent === 'object' && !Array.isArray(parent)) Object.assign(parent, SERVER_OWNED);
    }
    return { parts: next, headers: {} };
  }
  if (!field) {
    if (mutation !== 'missing') next.query.fuzz = mutatedValue(mutation, { place: 'query', path: ['fuzz'], schema: {} }, undefined);
    return { parts: next, headers: {} };
  }
  const target = field.place === 'path' ? next.params : field.place === 'query' ? next.query : (next.body ??= {});
  setIn(target, field.path, mutatedValue(mutation, field, getIn(target, field.path)));
  return { parts: next, headers: {} };
}

function urlValue(value: unknown): string {
  if (value instanceof Literal) return value.url;
  if (typeof value === 'string') return encodeURIComponent(value);
  return encodeURIComponent(JSON.stringify(value));
}

function jsonText(body: unknown): string {
  const literals: Literal[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (!(value instanceof Literal)) return value;
    literals.push(value);
    return `\u0001${literals.length - 1}\u0001`;
  });
  return text.replace(/"\\u0001(\d+)\\u0001"/g, (_m, i: string) => literals[Number(i)]!.json);
}

export function toHttp(baseUrl: string, mutated: ReturnType<typeof mutate>): HttpRequest {
  const { parts } = mutated;
  const path = parts.path.replace(/\{(\w+)\}/g, (_m, name: string) => (parts.params[name] === undefined ? '' : urlValue(parts.params[name])));
  const query = Object.entries(parts.query).flatMap(([name, value]) => {
    if (value instanceof RawQuery) return [value.text];
    const values = value instanceof Repeated ? value.values : [value];
    return values.map((v) => `${encodeURIComponent(name)}=${urlValue(v)}`);
  });
  const body = mutated.rawBody ?? (parts.body === undefined ? undefined : jsonText(parts.body));
  const headers = { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...mutated.headers };
  return { method: parts.method, url: `${baseUrl}${path}${query.length ? `?${query.join('&')}` : ''}`, headers, body };
}

/** One line naming a case, for the report. */
export function describeCase(mutation: Mutation, field: Field | undefined): string {
  return field ? `${mutation} at ${field.place} ${field.path.join('.')}` : mutation;
}
