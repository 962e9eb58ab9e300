// Requests built from a route's document: valid values for what it requires, the caller's own ids where it names
// ids, and one slot naming somebody else's.
import type { ResourceKind } from '../../api/schema-helpers.ts';
import { markOf, slotsOf, type Document, type Operation, type Schema, type Slot } from './documents.ts';
import type { Made } from './fixtures.ts';

/** What a request fills in beyond the schema's minimum, by `METHOD path` (a domain rule the schema cannot show). */
const BASES: Record<string, { query?: Record<string, unknown>; body?: Record<string, unknown> }> = {
  'post /ecard/bulkUpdate': { body: { fieldName: 'name', fieldValue: 'Renamed' } },
  'post /ecard/save': { body: { myEcard: { name: 'Card' } } },
  'post /widget/save': { body: { widget: { name: 'Widget', wconfig: {} } } },
  'post /automation/save': { body: { automation: { automation_name: 'Auto', event_type: 'birthday' } } },
  'post /automation/previewTrigger': { body: { trigger_type: 'birthday', timing_config: { send_time: '09:00', timezone: 'UTC' } } },
  'post /campaign/schedule': { body: { scheduled_at: '2099-01-01T09:00', scheduled_timezone: 'UTC' } },
  'post /campaign/updateLocale': { body: { locale: 'en' } },
  'post /pub/ecard-actions/send-ecard': { body: { senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', type: 'ecard_copy_link' } },
  'post /automation/toggle': { body: { automation: { enabled: false } } },
  'get /pub/team-member-actions/find': { query: { email: 'nobody@example.com' } },
  'post /tokens': { body: { purpose: 'widget_delete' } },
  'post /keys/{id}': { body: { name: 'Renamed' } },
};

/** What a new array item needs beyond its schema's minimum, by the array's path in the body. */
const ITEM_BASES: Record<string, Record<string, unknown>> = {
  milestone_rules: { after_years: 1 },
  'automation.milestone_rules': { after_years: 1 },
};

/** The kind of resource a token of this purpose names. */
const TOKEN_KIND: Record<string, ResourceKind> = {
  widget_delete: 'widget', widget_dir_sender_off: 'widget', ecard_delete_in_use: 'ecard', gc_campaign_send: 'campaign', gc_automation_enable: 'automation', brand_delete: 'brand',
};

const types = (s: Schema) => (Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : []);

/** `made`'s id of `kind` in the shape the slot's schema takes (an array, a record's keys, a vanity id for strings). */
export function idValue(doc: Document, schema: Schema, kind: ResourceKind, made: Made, purpose?: string): unknown {
  const real = kind === 'token_resource' ? TOKEN_KIND[purpose ?? 'widget_delete']! : kind;
  const id = made.ids[real]!;
  const s = doc.resolve(schema)!;
  const t = types(s);
  if (t.includes('array')) return [id];
  if (t.includes('object')) return { [String(id)]: 1 };
  if (t.includes('string') && !t.includes('integer') && !s.anyOf) return real === 'ecard' || real === 'widget' ? made.vanity[real] : String(id);
  return id;
}

/** A valid value of a schema: its default, first enum value, or the smallest thing of its type; own ids where marked. */
export function sample(doc: Document, schema: Schema | undefined, own: Made, depth = 0): unknown {
  const { kind, schema: s } = markOf(doc, schema);
  if (kind) return idValue(doc, s, kind, own);
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const t = types(s).filter((x) => x !== 'null');
  const format = s.format as string | undefined;
  if (t.includes('object') || s.properties) {
    const out: Record<string, unknown> = {};
    for (const name of s.required ?? []) out[name] = sample(doc, s.properties?.[name], own, depth + 1);
    return out;
  }
  if (t.includes('array')) return (s.minItems as number | undefined) ? [sample(doc, s.items, own, depth + 1)] : [];
  if (t.includes('integer') || t.includes('number')) return (s.minimum) ?? ((s.exclusiveMinimum as number | undefined) ?? 0) + 1;
  if (t.includes('boolean')) return false;
  if (format === 'email') return 'sam@example.com';
  if (format === 'date-time') return '2099-01-01T09:00:00.000Z';
  if (format === 'date') return '2030-01-01';
  if (format === 'uuid') return crypto.randomUUID();
  if (format === 'uri') return 'https://example.com/x';
  return 'x';
}

function merge(target: Record<string, unknown>, extra: Record<string, unknown> | undefined): Record<string, unknown> {
  for (const [k, v] of Object.entries(extra ?? {})) {
    const t = target[k];
    target[k] = v && typeof v === 'object' && !Array.isArray(v) && t && typeof t === 'object' ? merge({ ...(t as Record<string, unknown>) }, v as Record<string, unknown>) : v;
  }
  return target;
}

/** Puts `value` at `at` in `root`, making the objects (and one-item arrays) on the way. */
function setAt(root: Record<string, unknown>, at: string[], value: unknown, fill: (path: string[]) => unknown): void {
  let node: unknown = root;
  for (let i = 0; i < at.length - 1; i++) {
    const key = at[i]!;
    const container = node as Record<string, unknown> & unknown[];
    const index = key === '[]' ? 0 : key;
    let next = (container as Record<string | number, unknown>)[index];
    if (next === undefined || next === null || typeof next !== 'object') {
      next = fill(at.slice(0, i + 1)) ?? (at[i + 1] === '[]' ? [] : {});
      if (at[i + 1] === '[]' && Array.isArray(next) && next.length === 0) next = [{ ...ITEM_BASES[at.slice(0, i + 1).join('.')] }];
      (container as Record<string | number, unknown>)[index] = next;
    }
    if (Array.isArray(next) && next.length === 0) next.push({});
    node = next;
  }
  (node as Record<string, unknown>)[at[at.length - 1] === '[]' ? 0 : at[at.length - 1]!] = value;
}

export interface BuiltRequest {
  method: string;
  /** With the query string. */
  path: string;
  body: Record<string, unknown> | undefined;
}

/** The operation's request with the caller's own ids, and `slot` (if any) naming `victim`'s thing instead. */
export function buildRequest(doc: Document, op: Operation, own: Made, change?: { slot: Slot; victim: Made; extra?: Record<string, unknown> }): BuiltRequest {
  const base = BASES[`${op.method} ${op.path}`] ?? {};
  const slots = slotsOf(doc, op);
  const query: Record<string, unknown> = {};
  let path = op.path;
  for (const p of op.parameters) {
    const value = p.required ? sample(doc, p.schema, own) : undefined;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, String(value));
    else if (value !== undefined) query[p.name] = value;
  }
  merge(query, base.query);
  let body = op.body ? merge(sample(doc, op.body, own) as Record<string, unknown>, base.body) : undefined;
  if (change) {
    const { slot, victim } = change;
    const purpose = body?.purpose as string | undefined;
    const value = idValue(doc, slot.schema, slot.kind!, victim, purpose);
    if (slot.in === 'path') path = op.path.replace(`{${slot.name}}`, String(value));
    else if (slot.in === 'query') query[slot.name] = value;
    else {
      body ??= {};
      const fill = (at: string[]) => {
        const parent = slots.find((s) => s.in === 'body' && s.at.join('.') === at.join('.'));
        return parent ? sample(doc, parent.schema, own) : undefined;
      };
      setAt(body, slot.at, value, fill);
    }
    merge(body ?? {}, change.extra);
    if (change.extra && !body) body = change.extra;
    for (const p of op.parameters) if (p.in === 'path' && path.includes(`{${p.name}}`)) path = path.replace(`{${p.name}}`, String(sample(doc, p.schema, own)));
  }
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(',') : String(v)])).toString();
  return { method: op.method.toUpperCase(), path: search ? `${path}?${search}` : path, body };
}
