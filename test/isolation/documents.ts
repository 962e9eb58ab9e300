// The routes' id parameters as the isolation tests read them: from the public OpenAPI document, and from a document
// of the console's JSON API built the same way (the console is kept out of the public one).
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { buildOpenApiDocument } from '../../api/openapi.ts';
import { apiRoutes } from '../../api/routes.ts';
import { consoleRoutes } from '../../api/console/routes.ts';
import type { ResourceKind } from '../../api/schema-helpers.ts';

type RouteParameter = NonNullable<RouteConfig['request']>['params'];
export type Schema = Record<string, unknown> & { $ref?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema };
export interface Operation {
  method: string;
  /** OpenAPI style, `{id}` for path parameters. */
  path: string;
  parameters: Array<{ in: 'path' | 'query'; name: string; required?: boolean; schema: Schema }>;
  body: Schema | undefined;
}
export interface Document {
  operations: Operation[];
  /** Resolves `$ref`s (and nothing else). */
  resolve(schema: Schema | undefined): Schema | undefined;
}

/** Names that look like ids but are not server-assigned ids of a resource, with the reason. */
export const NOT_SERVER_IDS: Record<string, string> = {
  email: 'a member key the caller owns: another account’s value is simply unknown here (the matrix checks it)',
  employee_id: 'a member key the caller owns: another account’s value is simply unknown here (the matrix checks it)',
  after_id: 'a cursor over the caller’s own list (a position, not a reference)',
  before_id: 'a cursor over the caller’s own list (a position, not a reference)',
  target_id: 'a value matched within the caller’s own audit rows: another account’s id simply matches none',
  ownerid: 'refused (400 account_from_key): the account is always the key’s',
  user_id: 'refused (400 account_from_key): the account is always the key’s',
  product_id: 'a catalog product key (manual:<brand>:<denomination> or <provider>:<sku>), not an account’s row',
};

/** "Takes ids": a parameter or body property whose name ends in id or ids (any case). */
export const looksLikeId = (name: string) => /ids?$/i.test(name);

function documentOf(raw: { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } }): Document {
  const schemas = (raw.components?.schemas ?? {}) as Record<string, Schema>;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(raw.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, { parameters?: Operation['parameters']; requestBody?: { content: Record<string, { schema: Schema }> } }>)) {
      operations.push({ method, path, parameters: op.parameters ?? [], body: op.requestBody?.content['application/json']?.schema });
    }
  }
  const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]) : schema);
  return { operations, resolve };
}

/** The public document, as served and committed. */
export function apiDocument(): Document {
  return documentOf(buildOpenApiDocument(apiRoutes) as Parameters<typeof documentOf>[0]);
}

/** The console's JSON API (session routes; paths under /v2/console/api) as an OpenAPI document of the same generator. */
export function consoleDocument(): Document {
  const registry = new OpenAPIRegistry();
  for (const route of consoleRoutes) {
    if (route.surface !== 'session') continue;
    registry.registerPath({
      method: route.method,
      path: route.path.replace(/:(\w+)/g, '{$1}'),
      request: {
        ...(route.params ? { params: route.params as RouteParameter } : {}),
        ...(route.query ? { query: route.query as RouteParameter } : {}),
        ...(route.body ? { body: { content: { 'application/json': { schema: route.body } } } } : {}),
      },
      responses: { 200: { description: 'Success' } },
    });
  }
  return documentOf(new OpenApiGeneratorV31(registry.definitions).generateDocument({ openapi: '3.1.0', info: { title: 'console', version: '1' } }) as Parameters<typeof documentOf>[0]);
}

/** Where a value sits in a request: `in`, then the keys down to it (`[]` an array's items). */
export interface Slot {
  in: 'path' | 'query' | 'body';
  at: string[];
  name: string;
  kind: ResourceKind | undefined;
  /** The schema at the slot (the branch carrying the mark, or the first non-null one). */
  schema: Schema;
  required: boolean;
}

/** The `x-resource` of a schema or of one of its union branches, and the branch that carries it. */
export function markOf(doc: Document, schema: Schema | undefined): { kind: ResourceKind | undefined; schema: Schema } {
  const s = doc.resolve(schema) ?? {};
  if (typeof s['x-resource'] === 'string') return { kind: s['x-resource'] as ResourceKind, schema: s };
  const branches = [...((s.anyOf as Schema[]) ?? []), ...((s.oneOf as Schema[]) ?? []), ...((s.allOf as Schema[]) ?? [])];
  for (const branch of branches) {
    const found = markOf(doc, branch);
    if (found.kind) return found;
  }
  const nonNull = branches.map((b) => doc.resolve(b)!).find((b) => b.type !== 'null');
  return { kind: undefined, schema: nonNull && !s.type ? nonNull : s };
}

/** Every parameter and body property of an operation, nested ones included. */
export function slotsOf(doc: Document, op: Operation): Slot[] {
  const slots: Slot[] = op.parameters.map((p) => ({ in: p.in, at: [p.name], name: p.name, required: p.required === true, ...markOf(doc, p.schema) }));
  const walk = (schema: Schema | undefined, at: string[], depth: number) => {
    const s = markOf(doc, schema).schema;
    if (depth > 8) return;
    if (s.items) walk(s.items, [...at, '[]'], depth + 1);
    for (const [name, child] of Object.entries(s.properties ?? {})) {
      slots.push({ in: 'body', at: [...at, name], name, required: (s.required ?? []).includes(name), ...markOf(doc, child) });
      walk(child, [...at, name], depth + 1);
    }
  };
  walk(op.body, [], 0);
  return slots;
}
