// The OpenAPI 3.1 document, generated from the same route definitions and zod schemas the API validates with.
import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';

type RouteParameter = NonNullable<RouteConfig['request']>['params'];
import { z } from 'zod';
import { MemberEvent } from './directory/schema.ts';
import { capabilityOf, type AnyKeyRoute, type AnyWidgetRoute } from './http/route.ts';
import { named } from './schema-helpers.ts';
import { CampaignCompletedEvent, EcardSharedEvent, GiftClaimedEvent, OutcomeEvent } from './webhooks/schema.ts';

/** A documented route: the key API's, or the widget's public API's (no key; its own document). */
type AnyRoute = AnyKeyRoute | AnyWidgetRoute;

export const ErrorBody = named('Error', z.object({
  success: z.literal(false),
  data: z.null(),
  messages: z.array(z.string()).describe('human-readable; log messages[0]'),
  code: z.string().describe('stable snake_case error code'),
  request_id: z.string().describe('the same value as the X-Request-Id header'),
  requires_otp: z.boolean().optional().describe('a confirmation token is needed (403)'),
  otp_purpose: z.string().optional(),
  impact: z.array(z.record(z.string(), z.number())).optional().describe('what a gated delete would remove'),
}));

// send-ecard's failures are flat like its successes: a `reason` in place of `data`, plus what the reason needs
// (`needed` and `remaining` for `wouldexceedlimit`).
export const FlatErrorBody = named('FlatError', z.object({
  success: z.literal(false),
  reason: z.string().describe('einvalid, finvalid, tooshort, toomany, wouldexceedlimit, blocked, spammer, limitReached, notindirectory, unavailable, provider, …'),
  messages: z.array(z.string()).describe('human-readable; log messages[0]'),
  code: z.string().describe('stable snake_case error code'),
  request_id: z.string().describe('the same value as the X-Request-Id header'),
}));

/** An error answer: its component name (components.responses) and its description. */
interface ErrorAnswer {
  name: string;
  description: string;
}

const ERRORS: Record<string, ErrorAnswer> = {
  400: { name: 'BadRequest', description: 'A parameter of the wrong type or format, or malformed JSON' },
  401: { name: 'Unauthorized', description: 'Missing, malformed, unknown or revoked API key' },
  403: { name: 'Forbidden', description: 'The key lacks the scope, or the action needs a confirmation token' },
  404: { name: 'NotFound', description: 'Not found, or not this account’s' },
  422: { name: 'UnprocessableEntity', description: 'A required field is missing or empty, or a rule of the domain fails' },
  429: { name: 'TooManyRequests', description: 'Rate limited: retry after Retry-After seconds' },
  500: { name: 'InternalServerError', description: 'Unexpected error (details only in the service log)' },
  503: { name: 'ServiceUnavailable', description: 'The database is unavailable: retry after Retry-After seconds' },
};
const BODY_ERRORS: Record<string, ErrorAnswer> = {
  413: { name: 'PayloadTooLarge', description: 'The body is larger than the endpoint’s limit' },
  415: { name: 'UnsupportedMediaType', description: 'The body is not JSON' },
};

/** The headers of every success, written once under components.headers: name → description. */
const RATE_HEADERS: Record<string, string | undefined> = {
  'X-RateLimit-Limit': 'limit of the window with fewer requests left',
  'X-RateLimit-Remaining': undefined,
  'X-RateLimit-Reset': 'seconds until that window resets',
  'X-Request-Id': undefined,
};

// As the generator wrote each header when they were a zod object of the 200 (the description on both).
const headerObject = (description: string | undefined) => ({
  schema: { type: 'string' as const, ...(description ? { description } : {}) },
  required: true,
  ...(description ? { description } : {}),
});

const reference = (type: 'schemas' | 'headers' | 'responses', name: string) => ({ $ref: `#/components/${type}/${name}` });

function successSchema(route: AnyRoute): z.ZodType {
  if (route.answer === 'flat') {
    return (route.response as z.ZodObject).extend({ success: z.literal(true), messages: z.array(z.string()) });
  }
  return z.object({
    success: z.literal(true),
    data: route.response,
    messages: z.array(z.string()),
    ...(route.meta ? { meta: route.meta } : {}),
  });
}

function describeAccess(route: AnyRoute): string {
  if (route.surface === 'widget') return 'No key: the widget’s page calls it from its own origin (no cookies).';
  return route.access === 'any_key' ? 'Any valid API key.' : `Scope: \`${capabilityOf(route.access)}\` (${route.access.area}: ${route.access.level}).`;
}

/**
 * Registers the route; a standard error answer is a `$ref` to its component, the statuses taken are added to
 * `errorsUsed` (flat failures are written in place: their body is another schema).
 */
function register(registry: OpenAPIRegistry, route: AnyRoute, errorsUsed: Set<string>): void {
  const all = route.method === 'get' ? ERRORS : { ...ERRORS, ...BODY_ERRORS };
  // The widget's API takes no key: no 401/403.
  const errors = route.surface === 'widget' ? Object.fromEntries(Object.entries(all).filter(([status]) => status !== '401' && status !== '403')) : all;
  const headers = Object.fromEntries(Object.keys(RATE_HEADERS).map((name) => [name, reference('headers', name)]));
  const responses: Record<string, ResponseConfig | ReturnType<typeof reference>> = {
    200: { description: 'Success', headers, content: { 'application/json': { schema: successSchema(route) } } },
  };
  for (const [status, { name, description }] of Object.entries(errors)) {
    if (route.answer === 'flat') {
      responses[status] = { description, content: { 'application/json': { schema: FlatErrorBody } } };
    } else {
      responses[status] = reference('responses', name);
      errorsUsed.add(status);
    }
  }
  registry.registerPath({
    method: route.method,
    path: route.path.replace(/:(\w+)/g, '{$1}'),
    summary: route.summary,
    description: describeAccess(route),
    tags: route.tags,
    security: route.surface === 'widget' ? [] : [{ bearer: [] }],
    request: {
      ...(route.params ? { params: route.params as RouteParameter } : {}),
      ...(route.query ? { query: route.query as RouteParameter } : {}),
      ...(route.headers ? { headers: route.headers as RouteParameter } : {}),
      ...(route.body ? { body: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
    },
    responses,
  });
}

function sortKeys<T extends Record<string, unknown>>(object: T | undefined): T | undefined {
  return object && (Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b))) as T);
}

const SIGNED = 'Signed: `X-SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` (two `v1` during a secret rotation); `User-Agent: CardsvcHook`. Any 2xx within 15 s acknowledges; other answers are retried after about 1, 2, 4, 8 and 16 minutes.';

// The requests the service sends: documented as the document's webhooks, from the schemas the service uses.
function registerWebhooks(registry: OpenAPIRegistry): void {
  const acknowledged = { 200: { description: 'Any 2xx acknowledges the delivery; 410 removes a subscription' } };
  registry.registerWebhook({
    method: 'post',
    path: 'memberChange',
    summary: 'A member-change event (team_member_created | updated | deactivated | deleted), to subscribed URLs',
    description: SIGNED,
    request: { body: { content: { 'application/json': { schema: MemberEvent } } } },
    responses: acknowledged,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'outcomeEvent',
    summary: 'An outcome event (ecard_delivered | ecard_opened | ecard_failed | ecard_bounced; an extension of the spec), to subscribed URLs: up to 100 recipients per delivery',
    description: SIGNED,
    request: { body: { content: { 'application/json': { schema: OutcomeEvent } } } },
    responses: acknowledged,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'campaignCompleted',
    summary: 'campaign_completed (an outcome event; an extension of the spec), to subscribed URLs: a campaign ended (sent, failed or canceled), once',
    description: SIGNED,
    request: { body: { content: { 'application/json': { schema: CampaignCompletedEvent } } } },
    responses: acknowledged,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'giftClaimed',
    summary: 'gift_claimed (an outcome event; an extension of the spec), to subscribed URLs: a gift\'s code was revealed on its claim page, once per order',
    description: SIGNED,
    request: { body: { content: { 'application/json': { schema: GiftClaimedEvent } } } },
    responses: acknowledged,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'ecardShared',
    summary: 'eCards sent or shared: one element per recipient, to the account\'s ecard_shared URL',
    description: SIGNED,
    request: { body: { content: { 'application/json': { schema: z.array(EcardSharedEvent) } } } },
    responses: acknowledged,
  });
}

/** What distinguishes one document from another: its title, description and server, and whether keys and webhooks apply. */
export interface DocumentKind {
  title: string;
  description: string;
  server: string;
  /** The key API's bearer scheme and its webhooks; the widget's public API has neither. */
  keyed: boolean;
}

export const KEY_API_DOCUMENT: DocumentKind = {
  title: 'Card service API',
  description:
    'Branded eCards by email, at a scheduled time or as a share link; widgets, campaigns, automations, a team ' +
    'directory, rewards and signed webhooks. Every call carries `Authorization: Bearer <API key>`. Successes are ' +
    '`{ success: true, data, messages: [] }` (lists add `meta`); failures `{ success: false, data: null, messages, code, request_id }` (send-ecard\'s are flat: `reason` in place of `data`).',
  server: '/v2/api',
  keyed: true,
};

export const WIDGET_API_DOCUMENT: DocumentKind = {
  title: 'Card service widget API',
  description:
    'The public API of an embeddable widget, called by the widget’s own page (`/w/{vanity_id}`) from the same ' +
    'origin: no key, no cookies. Unknown, private and campaign widgets answer the same 404. Successes are ' +
    '`{ success: true, data, messages: [] }` or flat (the send); failures `{ success: false, messages, code, … }`.',
  server: '/v2/widget',
  keyed: false,
};

/** The document for the documented routes; paths and schemas sorted, so a change is a small, stable diff. */
export function buildOpenApiDocument(routes: readonly AnyRoute[], kind: DocumentKind = KEY_API_DOCUMENT) {
  const registry = new OpenAPIRegistry();
  if (kind.keyed) {
    registry.registerComponent('securitySchemes', 'bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'An API key: `Authorization: Bearer csk_live_…` (or `csk_test_…` for the sandbox)',
    });
  }
  registry.register('Error', ErrorBody);
  for (const name of Object.keys(RATE_HEADERS)) registry.registerComponent('headers', name, headerObject(RATE_HEADERS[name]));
  const errorsUsed = new Set<string>();
  for (const route of routes) if (!('documented' in route) || route.documented !== false) register(registry, route, errorsUsed);
  const errorAnswers: Record<string, ErrorAnswer> = { ...ERRORS, ...BODY_ERRORS };
  for (const status of [...errorsUsed].sort()) {
    const { name, description } = errorAnswers[status]!;
    registry.registerComponent('responses', name, { description, content: { 'application/json': { schema: reference('schemas', 'Error') } } });
  }
  if (kind.keyed) registerWebhooks(registry);
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: kind.title, version: '2.0.0', description: kind.description },
    servers: [{ url: kind.server }],
    ...(kind.keyed ? { security: [{ bearer: [] }] } : {}),
  });
  return {
    ...document,
    paths: sortKeys(document.paths),
    components: { ...document.components, schemas: sortKeys(document.components?.schemas) },
  };
}

/** The JSON text committed as docs/openapi.json and compared in the tests. */
export function openApiText(routes: readonly AnyRoute[], kind: DocumentKind = KEY_API_DOCUMENT): string {
  return `${JSON.stringify(buildOpenApiDocument(routes, kind), null, 2)}\n`;
}
