// Schema pieces every endpoint shares: flags, query booleans, page-numbered lists, aliases, time zones, component names.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { canonicalTimeZone } from '../services/campaigns/schedule-time.ts';

// Lets a schema carry a component name (below) before any module that defines one uses it: the schemas import this
// module, so it runs first.
extendZodWithOpenApi(z);
const names = new Set<string>();

/**
 * Names a schema in the OpenAPI document (api/openapi.ts): the generator writes it once, under components.schemas, and
 * `$ref`s it from every use. Metadata only: the named schema parses exactly as the unnamed one. A name is taken once
 * (a second schema under it would silently be documented as the first). Use a named schema as it is: the generator
 * writes the component from its first use, so a `.nullable()` one can make every use nullable, and `.extend()` is
 * documented as an allOf (which an overridden field cannot satisfy): spread its `.shape` into a new object instead.
 */
export function named<T extends z.ZodType>(name: string, schema: T): T {
  if (names.has(name)) throw new Error(`OpenAPI component name ${name} is taken`);
  names.add(name);
  return schema.openapi(name);
}

/** A flag on input: true/false, 1/0, or their strings; always a boolean after parsing. */
export const flag = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

/**
 * An IANA time zone name, canonicalised as a campaign's `scheduled_timezone` is (`asia/tokyo` → `Asia/Tokyo`); an
 * unknown name or a raw offset (`+09:00`) is 400 naming the field.
 */
export const timeZoneName = z.string().trim().min(1).max(64).transform((name, ctx) => {
  try {
    return canonicalTimeZone(name);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'expected an IANA time zone name like Europe/Berlin', input: name });
    return z.NEVER;
  }
});

/** A boolean query parameter: `true|false|1|0`. */
export const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const sortOrder = z.enum(['asc', 'desc']).default('desc');

/** Decimal digits, the only text an id may be written as (`0x1`, `1e0`, ` 1` are not ids, though Number() reads them). */
export const DECIMAL_ID = /^\d{1,15}$/;

/** A numeric value from its decimal digits; any other text is left as it is, for the number schema to refuse (400). */
export const fromDigits = (value: unknown): unknown => (typeof value === 'string' && DECIMAL_ID.test(value) ? Number(value) : value);

/**
 * A server-assigned numeric id in a path or a query (text), or a body (a JSON integer or its digits): decimal
 * digits only, at least `min` (1; 0 where 0 means "none" or "create").
 */
export function numericId(min: 0 | 1 = 1) {
  const id = z.number({ error: 'expected an id in decimal digits' }).int();
  return z.preprocess(fromDigits, min === 1 ? id.positive() : id.min(0));
}

/** A whole number in a query (a page, a size): decimal digits only, like ids. */
export const queryInt = () => z.number({ error: 'expected decimal digits' }).int();

/** `page` (1-based) and `perPage` (default 20, at most `max`; over it is 400). */
export function pageQuery(max = 100, perPageDefault = 20) {
  return z.object({
    page: z.preprocess(fromDigits, queryInt().min(1)).default(1),
    perPage: z.preprocess(fromDigits, queryInt().min(1).max(max)).default(perPageDefault),
  });
}

export const PageMeta = named('PageMeta', z.object({
  page: z.number().int(),
  perPage: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
}));
export type PageMeta = z.infer<typeof PageMeta>;

export function pageMeta(page: number, perPage: number, total: number): PageMeta {
  return { page, perPage, total, totalPages: Math.ceil(total / perPage) };
}

/**
 * Accepts other spellings of a parameter (`widgetID`, `widgetid` for `widgetId`): an alias fills the documented
 * name when that is absent. The documented name is the only one in the schema (and the OpenAPI document).
 */
export function withAliases<T extends z.ZodObject>(schema: T, aliases: Record<string, readonly string[]>) {
  return z.preprocess((input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const [name, others] of Object.entries(aliases)) {
      if (out[name] !== undefined) continue;
      const alias = others.find((o) => out[o] !== undefined);
      if (alias) out[name] = out[alias];
    }
    return out;
  }, schema);
}

/** The kinds of server-assigned ids a route can name (the isolation matrix makes one of each in another account). */
export type ResourceKind =
  | 'ecard'
  | 'widget'
  | 'brand'
  | 'campaign'
  | 'automation'
  | 'member'
  | 'department'
  | 'send'
  | 'webhook_endpoint'
  | 'webhook_delivery'
  | 'api_key'
  | 'sandbox_email'
  /** A confirmation token's resource: the widget, eCard, brand, campaign or automation its purpose names. */
  | 'token_resource'
  /** A console session's public id: only its own person's (another person's, even in the same account, is 404). */
  | 'console_session'
  /** A person by their user id: a member of the caller's account (anyone else is 404). */
  | 'console_user'
  /** A row of the account's audit log. */
  | 'audit_event'
  /** A live account the signed-in person is a member of (the console's account switch). */
  | 'account';

/**
 * Marks a schema as naming server-assigned ids of `kind` (`x-resource` in the OpenAPI document): another
 * account's or an unknown one is 404. On a record, its keys are the ids.
 */
export function resource<T extends z.ZodType>(kind: ResourceKind, schema: T): T {
  return schema.meta({ 'x-resource': kind });
}
