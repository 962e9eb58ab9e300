// `npm run openapi`: writes the committed copies of the OpenAPI documents (docs/openapi.json, the key API's, and
// docs/widget-openapi.json, the widget API's); the tests compare them with the generated ones, so every contract
// change shows up as a diff in review.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApiText } from '../api/openapi.ts';
import { apiRoutes } from '../api/routes.ts';
import { widgetOpenApiText } from '../api/widgets/public/openapi-doc.ts';
import { widgetApiRoutes } from '../api/widgets/public/routes.ts';
import { runMain } from '../lib/main.ts';
import { packageRoot } from '../lib/paths.ts';

export const COMMITTED_OPENAPI = join(packageRoot, 'docs', 'openapi.json');
export const COMMITTED_WIDGET_OPENAPI = join(packageRoot, 'docs', 'widget-openapi.json');

await runMain('npm run openapi', async () => {
  await writeFile(COMMITTED_OPENAPI, openApiText(apiRoutes));
  await writeFile(COMMITTED_WIDGET_OPENAPI, widgetOpenApiText(widgetApiRoutes));
  console.error(`Wrote ${COMMITTED_OPENAPI} and ${COMMITTED_WIDGET_OPENAPI}`);
});
