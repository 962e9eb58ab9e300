// The console's HTML pages in the isolation matrix: every page route whose path names an id, and the forms and
// filters that carry one, with what each names. The routes come from the page routers themselves, so a new page
// with a path parameter that is missing here fails the matrix until it is added (or explained in UNCHECKED).
import { consolePageRoutes } from '../../api/console/page-routes.ts';
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
  'POST /v2/console/profile/sessions/:id/revoke': 'console_session',
  'POST /v2/console/settings/team/:user_id/role': 'console_user',
  'POST /v2/console/settings/team/:user_id/remove': 'console_user',
  'GET /v2/console/outbox/:id': 'sandbox_email',
  'GET /v2/console/outbox/:id/html': 'sandbox_email',
  'GET /v2/console/campaigns/:id/delete': 'campaign',
  'POST /v2/console/campaigns/:id/delete': 'campaign',
  'GET /v2/console/automations/:id/delete': 'automation',
  'POST /v2/console/automations/:id/delete': 'automation',
  'GET /v2/console/campaigns/:id': 'campaign',
  'GET /v2/console/campaigns/:id/details': 'campaign',
  'POST /v2/console/campaigns/:id/details': 'campaign',
  'GET /v2/console/campaigns/:id/ecards': 'campaign',
  'POST /v2/console/campaigns/:id/ecards': 'campaign',
  'GET /v2/console/campaigns/:id/recipients': 'campaign',
  'POST /v2/console/campaigns/:id/recipients': 'campaign',
  'GET /v2/console/campaigns/:id/launch': 'campaign',
  'POST /v2/console/campaigns/:id/launch': 'campaign',
  'POST /v2/console/campaigns/:id/gift': 'campaign',
  'POST /v2/console/campaigns/:id/unschedule': 'campaign',
  'POST /v2/console/campaigns/:id/cancel': 'campaign',
  'POST /v2/console/campaigns/:id/locale': 'campaign',
  'POST /v2/console/webhooks/endpoints/:id/enable': 'webhook_endpoint',
  'GET /v2/console/webhooks/deliveries/:id': 'webhook_delivery',
  'POST /v2/console/webhooks/deliveries/:id/replay': 'webhook_delivery',
  'POST /v2/console/webhooks/subscriptions/:id/remove': 'webhook_endpoint',
  'GET /v2/console/widgets/:id': 'widget',
  'POST /v2/console/widgets/:id/copy': 'widget',
  'GET /v2/console/widgets/:id/customize': 'widget',
  'POST /v2/console/widgets/:id/customize': 'widget',
  'GET /v2/console/preview/widget/:id': 'widget',
  'POST /v2/console/preview/widget/:id': 'widget',
  'GET /v2/console/widgets/:id/share': 'widget',
  'POST /v2/console/widgets/:id/share': 'widget',
  'GET /v2/console/widgets/:id/settings': 'widget',
  'POST /v2/console/widgets/:id/settings': 'widget',
  'GET /v2/console/widgets/:id/directory-off': 'widget',
  'POST /v2/console/widgets/:id/directory': 'widget',
  'GET /v2/console/widgets/:id/delete': 'widget',
  'POST /v2/console/widgets/:id/delete': 'widget',
  'GET /v2/console/widgets/:id/ecards': 'widget',
  'POST /v2/console/widgets/:id/ecards/order': 'widget',
  'GET /v2/console/widgets/:id/stats': 'widget',
  'POST /v2/console/widgets/ecards/:id/copy': 'ecard',
  'POST /v2/console/widgets/ecards/:id/visibility': 'ecard',
  'POST /v2/console/widgets/ecards/:id/price': 'ecard',
  'POST /v2/console/widgets/ecards/:id/delete': 'ecard',
  'GET /v2/console/ecards/:id': 'ecard',
  'POST /v2/console/ecards/:id': 'ecard',
  'GET /v2/console/brands/:id': 'brand',
  'POST /v2/console/brands/:id': 'brand',
  'GET /v2/console/brands/:id/delete': 'brand',
  'POST /v2/console/brands/:id/delete': 'brand',
  'GET /v2/console/preview/ecard/:id': 'ecard',
  'POST /v2/console/preview/ecard/:id': 'ecard',
  'GET /v2/console/preview/email/:id': 'ecard',
  'POST /v2/console/preview/email/:id': 'ecard',
  'GET /v2/console/preview/brand/:id': 'brand',
  'POST /v2/console/preview/brand/:id': 'brand',
  'POST /v2/console/ecards/:id/test': 'ecard',
  'GET /v2/console/send/sent/:id': 'send',
  'GET /v2/console/sends/:id': 'send',
  'GET /v2/console/sends/:id/cancel': 'send',
  'POST /v2/console/sends/:id/cancel': 'send',
  'GET /v2/console/automations/:id': 'automation',
  'POST /v2/console/automations/:id': 'automation',
  'POST /v2/console/automations/:id/enable': 'automation',
  'POST /v2/console/automations/:id/gift': 'automation',
  'POST /v2/console/automations/:id/notifications': 'automation',
  'GET /v2/console/directory/members/:id': 'member',
  'POST /v2/console/directory/members/:id': 'member',
  'POST /v2/console/directory/members/:id/deactivate': 'member',
  'POST /v2/console/directory/members/:id/reactivate': 'member',
  'GET /v2/console/directory/members/:id/erase': 'member',
  'POST /v2/console/directory/members/:id/erase': 'member',
};

/** What a path-id route's form always carries (a browser sends the select's value): valid, so only the id can fail. */
const PATH_FORMS: Record<string, Record<string, string>> = {
  'POST /v2/console/settings/team/:user_id/role': { role: 'viewer' },
};

/** Page routes with a path parameter that names no server-assigned id, and why. */
const UNCHECKED: Record<string, string> = {
  'GET /v2/console/campaigns/:id/deleted': 'the notice after a delete: it echoes the id of its URL and reads nothing',
  'GET /v2/console/automations/:id/deleted': 'the notice after a delete: it echoes the id of its URL and reads nothing',
  'GET /v2/console/assets/:name': 'a browser file of the console by its fixed name (scripts, stylesheets, pinned libraries), the same for every account',
  'POST /v2/console/settings/fields/:key/remove': "a custom field's key, a name in the caller's own namespace (as a member's email), not an id",
};

/** Ids in a page's query or form (filters and the token form), the same slots as in the console API. */
const FIELD_SLOTS: Array<{ method: 'GET' | 'POST'; path: string; field: string; kind: ResourceKind; with?: Record<string, string> }> = [
  { method: 'GET', path: '/v2/console/webhooks/deliveries', field: 'endpoint_id', kind: 'webhook_endpoint' },
  { method: 'POST', path: '/v2/console/account/switch', field: 'account_id', kind: 'account' },
  { method: 'GET', path: '/v2/console/rewards/orders', field: 'campaign_id', kind: 'campaign' },
  { method: 'POST', path: '/v2/console/tokens', field: 'resource_id', kind: 'widget', with: { purpose: 'widget_delete' } },
  { method: 'POST', path: '/v2/console/tokens', field: 'resource_id', kind: 'ecard', with: { purpose: 'ecard_delete_in_use' } },
  { method: 'POST', path: '/v2/console/tokens', field: 'resource_id', kind: 'brand', with: { purpose: 'brand_delete' } },
  { method: 'GET', path: '/v2/console/directory/members', field: 'department', kind: 'department' },
  { method: 'GET', path: '/v2/console/ecards', field: 'widgetid', kind: 'widget' },
  { method: 'POST', path: '/v2/console/ecards/bulk', field: 'ecardids', kind: 'ecard', with: { fieldName: 'disabled', value_flag: 'yes' } },
  { method: 'POST', path: '/v2/console/preview/ecard/0', field: 'widgetid', kind: 'widget', with: { name: 'Preview' } },
  { method: 'POST', path: '/v2/console/preview/email/0', field: 'widgetid', kind: 'widget', with: { name: 'Preview' } },
  { method: 'GET', path: '/v2/console/send', field: 'ecardid', kind: 'ecard' },
  { method: 'POST', path: '/v2/console/send', field: 'ecardid', kind: 'ecard', with: { sender_name: 'Sam', sender_email: 'sam@example.com', recipient_name_1: 'Rita', recipient_email_1: 'rita@example.com', delivery: 'now' } },
  { method: 'GET', path: '/v2/console/sends', field: 'widgetId', kind: 'widget' },
  { method: 'GET', path: '/v2/console/sends', field: 'ecardId', kind: 'ecard' },
  { method: 'GET', path: '/v2/console/sends/export.csv', field: 'widgetId', kind: 'widget' },
  { method: 'GET', path: '/v2/console/sends/export.csv', field: 'ecardId', kind: 'ecard' },
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
    const form = PATH_FORMS[route];
    out.push({ slot: `${kind} in the path`, request: { method, path: path.replace(/:[a-z_]+/, encodeURIComponent(String(id))), ...(form ? { form } : {}) } });
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
