// The OpenAPI 3 document, generated from the zod schemas each router registers beside its routes.
import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import Router from '@koa/router';
import type { Config } from '../lib/config.ts';

export { OpenAPIRegistry };

export const OPENAPI_PATH = '/v2/api/openapi.json';

export function openApiDocument(registry: OpenAPIRegistry, config: Pick<Config, 'publicBaseUrl'>) {
  return new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Card service API',
      version: '2.0.0',
      description: 'Branded eCards by email, schedule or share link; widgets, campaigns, automations, directory and signed webhooks.',
    },
    servers: [{ url: config.publicBaseUrl }],
  });
}

/** Serves the document (no key, not enveloped); it is generated once, on first request. */
export function openApiRouter(registry: OpenAPIRegistry, config: Pick<Config, 'publicBaseUrl'>): Router {
  let document: ReturnType<typeof openApiDocument> | undefined;
  const router = new Router();
  router.get(OPENAPI_PATH, (ctx) => {
    document ??= openApiDocument(registry, config);
    ctx.body = document;
  });
  return router;
}
