// The fuzzer's reading of the served OpenAPI document: its operations, the fields each takes, and an example
// value for a schema (the smallest one its rules allow), so every operation starts from a request that passes.
import { inlineRefs } from '../test/helpers/openapi-refs.ts';

export interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Schema;
}

interface RawOperation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

export interface OpenApiDocument {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, RawOperation>>;
}

export type Place = 'path' | 'query' | 'body';

/** One input of an operation: a path or query parameter, or a body field at any depth (`0` for an array item). */
export interface Field {
  place: Place;
  path: string[];
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The documented path, e.g. `/ecard/findOne/id/{id}`. */
  path: string;
  /** `method path`, as FUZZ_ONLY names it. */
  name: string;
  parameters: Parameter[];
  body: Schema | undefined;
  /** send-ecard answers flat: its 200 has no `data`. */
  envelope: 'standard' | 'flat';
  /** The documented answers: status → body schema. */
  responses: Record<string, Schema | undefined>;
  fields: Field[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The schema's variants: its own, or each `anyOf` member. */
function variants(schema: Schema): Schema[] {
  return schema.anyOf ? schema.anyOf.flatMap(variants) : [schema];
}

/** The longest text the schema's string variants accept, when every one of them publishes a maxLength. */
export function maxLengthOf(schema: Schema): number | undefined {
  const strings = variants(schema).filter((v) => types(v).includes('string'));
  const limits = strings.map((v) => v.maxLength).filter((n): n is number => n !== undefined);
  return strings.length && limits.length === strings.length ? Math.max(...limits) : undefined;
}

const types = (schema: Schema): string[] => (schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);
export const allows = (schema: Schema, type: string): boolean => variants(schema).some((v) => types(v).includes(type));

function bodyFields(schema: Schema, path: string[], out: Field[]): void {
  for (const variant of variants(schema)) {
    for (const [name, child] of Object.entries(variant.properties ?? {})) {
      out.push({ place: 'body', path: [...path, name], schema: child });
      bodyFields(child, [...path, name], out);
    }
    if (variant.items) {
      out.push({ place: 'body', path: [...path, '0'], schema: variant.items });
      bodyFields(variant.items, [...path, '0'], out);
    }
  }
}

/** The document's operations, with its `$ref`s (named schemas, headers, error answers) written out. */
export function operations(served: OpenApiDocument): Operation[] {
  const document = inlineRefs(served);
  const list: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = (raw.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query');
      const body = raw.requestBody?.content['application/json']?.schema;
      const success = raw.responses['200']?.content?.['application/json']?.schema;
      const fields: Field[] = parameters.map((p) => ({ place: p.in as Place, path: [p.name], schema: p.schema }));
      if (body) bodyFields(body, [], fields);
      list.push({
        method: method.toUpperCase(),
        path,
        name: `${method.toUpperCase()} ${path}`,
        parameters,
        body,
        envelope: success?.properties && !('data' in success.properties) ? 'flat' : 'standard',
        responses: Object.fromEntries(Object.entries(raw.responses).map(([status, r]) => [status, r.content?.['application/json']?.schema])),
        fields,
      });
    }
  }
  return list;
}

const FUTURE = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

/** The smallest value the schema accepts: required properties only, the first enum value, the lowest number. */
export function example(schema: Schema): unknown {
  const [variant = {}] = variants(schema);
  if (variant.enum?.length) return variant.enum[0];
  const type = types(variant).find((t) => t !== 'null') ?? 'string';
  switch (type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const name of variant.required ?? []) object[name] = example(variant.properties?.[name] ?? {});
      return object;
    }
    case 'array':
      return Array.from({ length: variant.minItems ?? 1 }, () => example(variant.items ?? {}));
    case 'integer':
    case 'number':
      return variant.minimum ?? (variant.exclusiveMinimum === undefined ? 1 : variant.exclusiveMinimum + 1);
    case 'boolean':
      return true;
    default:
      return exampleString(variant);
  }
}

function exampleString(schema: Schema): string {
  if (schema.format === 'email') return 'fuzz@example.com';
  if (schema.format === 'uri') return 'https://example.com/fuzz';
  if (schema.format === 'date-time') return FUTURE();
  if (schema.format === 'date') return '2000-01-31';
  if (schema.pattern?.includes('a-zA-Z]{2,3}')) return 'en';
  return 'fuzz'.padEnd(schema.minLength ?? 0, 'z');
}
