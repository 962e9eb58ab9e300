// Public, unauthenticated pages of the API: the OpenAPI document and a docs page (Swagger UI from node_modules).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { API_PREFIX } from '../http/mount.ts';
import { defineFile, type AnyRoute } from '../http/route.ts';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = `${API_PREFIX}/docs`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Card service API</title>
  <link rel="icon" href="${DOCS_PATH}/favicon-32x32.png">
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
</head>
<body>
  <div id="docs"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// Loaded as a file, not inline, so the page works under a strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: '#docs', deepLinking: true });\n`;

export function docsRoutes(document: object): AnyRoute[] {
  const documentText = JSON.stringify(document);
  return [
    defineFile({
      method: 'get',
      path: OPENAPI_PATH,
      handler: async () => ({ type: 'application/json', body: documentText }),
    }),
    defineFile({
      method: 'get',
      path: DOCS_PATH,
      async handler(_input, { koa }) {
        koa.type = 'text/html; charset=utf-8';
        koa.set('Content-Security-Policy', "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
        koa.set('Referrer-Policy', 'no-referrer');
        return { body: PAGE };
      },
    }),
    defineFile({
      method: 'get',
      path: `${DOCS_PATH}/init.js`,
      handler: async () => ({ type: 'text/javascript; charset=utf-8', body: INIT }),
    }),
    defineFile({
      method: 'get',
      path: `${DOCS_PATH}/:asset`,
      params: z.object({ asset: z.string() }),
      async handler({ params }, { koa }) {
        const type = ASSETS[params.asset];
        if (!type) return null;
        koa.type = type;
        koa.set('Cache-Control', 'public, max-age=86400');
        return { body: await readFile(join(swaggerDir, params.asset)) };
      },
    }),
  ];
}
