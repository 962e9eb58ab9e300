// Test-only routes built with the same route definition as the real ones (kept out of the OpenAPI document):
// a scoped read of an account-owned resource, a scoped write with a zod body, a list, a flat route, failures.
import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../api/http/route.ts';
import { flag, pageMeta, PageMeta, pageQuery, withAliases } from '../../api/schema-helpers.ts';
import { ApiError } from '../../lib/errors.ts';

const Echo = z.object({
  name: z.string().trim().min(1),
  count: z.number().int().optional(),
  enabled: flag.optional(),
  widgetId: z.string().optional(),
});

export const fixtureRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/fixture/keys/:id',
    summary: 'An API key of the calling account (a resource owned by an account)',
    tags: ['fixture'],
    access: { area: 'ecards', level: 'view' },
    documented: false,
    params: z.object({ id: z.coerce.number().int().positive() }),
    response: z.object({ id: z.number(), name: z.string() }),
    async handler({ params }, { services, caller }) {
      const key = await services.models.ApiKey.findOne({ where: { id: params.id, account_id: caller.account.id } });
      if (!key) throw new ApiError(404, 'not_found', `No key ${params.id}`);
      return { id: key.id, name: key.name };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/fixture/echo',
    summary: 'Echoes a validated body',
    tags: ['fixture'],
    access: { area: 'ecards', level: 'manage' },
    documented: false,
    body: withAliases(Echo, { widgetId: ['widgetID', 'widgetid'] }),
    response: Echo.extend({ enabled: z.boolean().optional() }),
    async handler({ body }) {
      return body;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/fixture/list',
    summary: 'A page-numbered list',
    tags: ['fixture'],
    access: { area: 'ecards', level: 'view' },
    documented: false,
    query: pageQuery(),
    response: z.array(z.object({ n: z.number() })),
    meta: PageMeta,
    async handler({ query }) {
      const total = 45;
      const first = (query.page - 1) * query.perPage;
      const data = Array.from({ length: Math.max(0, Math.min(query.perPage, total - first)) }, (_, i) => ({ n: first + i + 1 }));
      return { data, meta: pageMeta(query.page, query.perPage, total) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/fixture/flat',
    summary: 'A flat-envelope route (as send-ecard)',
    tags: ['fixture'],
    access: { area: 'sends', level: 'manage' },
    answer: 'flat',
    documented: false,
    body: z.object({ fail: z.boolean().optional() }),
    response: z.object({ sendId: z.string() }),
    async handler({ body }) {
      if (body.fail) throw new ApiError(400, 'einvalid', 'senderEmail is not a valid email');
      return { sendId: 'send-1' };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/fixture/boom',
    summary: 'Fails unexpectedly',
    tags: ['fixture'],
    access: 'any_key',
    documented: false,
    response: z.object({}),
    async handler() {
      throw new Error('SELECT * FROM api_keys WHERE key_hash = secret-detail');
    },
  }),
  defineRoute({
    method: 'get',
    path: '/fixture/busy',
    summary: 'Fails as SQLite does when another writer holds the lock past every wait',
    tags: ['fixture'],
    access: 'any_key',
    documented: false,
    response: z.object({}),
    async handler() {
      throw Object.assign(new Error('SQLITE_BUSY: database is locked'), { errno: 5, code: 'SQLITE_BUSY' });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/fixture/leaky',
    summary: 'Answers a field its schema does not declare',
    tags: ['fixture'],
    access: 'any_key',
    documented: false,
    response: z.object({ id: z.number() }),
    async handler() {
      return { id: 1, key_hash: 'leaked' } as { id: number };
    },
  }),
];
