// The console's HTML pages in the isolation matrix: every page route whose path names an id, and the forms and
// filters that carry one, with what each names. The routes come from the page routers themselves, so a new page
// with a path parameter that is missing here fails the matrix until it is added (or explained in UNCHECKED).
import { consolePageRoutes } from '../../api/console/pages/routes.ts';
import { CONSOLE_PREFIX } from '../../api/http/session.ts';
import type { ResourceKind } from '../../api/schema-helpers.ts';
import type { Made } from './fixtures.ts';

/** A page request naming one id: its method, path, and the form fields (POST) or query beside it. */
export interface PageRequest {
  method: 'GET' | 'POST';
  path: string;
  form?: Record<string, string>;
}

/** Path parameters and what they name, by route (`METHOD /path`). */
const PATH_KINDS: Record<string, ResourceKind> = {
  'GET /v2/console/keys/:id': 'api_key',
  'POST /v2/console/keys/:id': 'api_key',
  'POST /v2/console/keys/:id/rotate': 'api_key',
  'POST /v2/console/keys/:id/revoke': 'api_key',
  'GET /v2/console/outbox/:id': 'sandbox_email',
  'GET /v2/console/campaigns/:id/delete': 'campaign',
  'POST /v2/console/campaigns/:id/delete': 'campaign',
  'GET /v2/console/automations/:id/delete': 'automation',
  'POST /v2/console/automations/:id/delete': 'automation',
  'POST /v2/console/webhooks/endpoints/:id/enable': 'webhook_endpoint',
  'GET /v2/console/webhooks/deliveries/:id': 'webhook_delivery',
  'POST /v2/console/webhooks/deliveries/:id/replay': 'webhook_delivery',
  'POST /v2/console/webhooks/subscriptions/:id/remove': 'webhook_endpoint',
};

/** Page routes with a path parameter that names no server-assigned id, and why. */
const UNCHECKED: Record<string, string> = {
  'GET /v2/console/campaigns/:id/deleted': 'the notice after a delete: it echoes the id of its URL and reads nothing',
  'GET /v2/console/automations/:id/deleted': 'the notice after a delete: it echoes the id of its URL and reads nothing',
  'POST /v2/console/settings/fields/:key/remove': "a custom field's key, a name in the caller's own namespace (as a member's email), not an id",
};

/** Ids in a page's query or form (filters and the token form), the same slots as in the console API. */
const FIELD_SLOTS: Array<{ method: 'GET' | 'POST'; path: string; field: string; kind: ResourceKind; with?: Record<string, string> }> = [
  { method: 'GET', path: '/v2/console/webhooks/deliveries', field: 'endpoint_id', kind: 'webhook_endpoint' },
  { method: 'GET', path: '/v2/console/rewards/orders', field: 'campaign_id', kind: 'campaign' },
  { method: 'POST', path: '/v2/console/tokens', field: 'resource_id', kind: 'widget', with: { purpose: 'widget_delete' } },
  { method: 'POST', path: '/v2/console/tokens', field: 'resource_id', kind: 'ecard', with: { purpose: 'ecard_delete_in_use' } },
  { method: 'POST', path: '/v2/console/tokens', field: 'resource_id', kind: 'brand', with: { purpose: 'brand_delete' } },
];

/** Every page route with a path parameter, as `METHOD /path` (read from the page routes themselves). */
export function pageRoutesWithParams(): string[] {
  return consolePageRoutes.filter((route) => /:\w/.test(route.path) && (route.method === 'get' || route.method === 'post')).map((route) => `${route.method.toUpperCase()} ${CONSOLE_PREFIX}${route.path}`);
}

/** The routes neither mapped nor explained (the matrix fails on any). */
export function unmappedPageRoutes(): string[] {
  return pageRoutesWithParams().filter((route) => !(route in PATH_KINDS) && !(route in UNCHECKED));
}

/** Every page request naming one of `victim`'s ids, with its slot for the report. */
export function pageRequests(victim: Made): Array<{ slot: string; request: PageRequest }> {
  const out: Array<{ slot: string; request: PageRequest }> = [];
  for (const [route, kind] of Object.entries(PATH_KINDS)) {
    const id = victim.ids[kind];
    if (id === undefined) continue;
    const [method, path] = route.split(' ') as ['GET' | 'POST', string];
    out.push({ slot: `${kind} in the path`, request: { method, path: path.replace(/:[a-z_]+/, encodeURIComponent(String(id))) } });
  }
  for (const s of FIELD_SLOTS) {
    const id = victim.ids[s.kind];
    if (id === undefined) continue;
    const fields = { ...s.with, [s.field]: String(id) };
    const request: PageRequest = s.method === 'GET' ? { method: 'GET', path: `${s.path}?${new URLSearchParams(fields).toString()}` } : { method: 'POST', path: s.path, form: fields };
    out.push({ slot: `${s.kind} as ${s.field}`, request });
  }
  return out;
}
