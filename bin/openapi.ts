// `npm run openapi`: writes the committed copy of the OpenAPI document (docs/openapi.json); the tests
// compare it with the generated one, so every contract change shows up as a diff in review.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openApiText } from '../api/openapi.ts';
import { apiRoutes } from '../api/routes.ts';
import { runMain } from '../lib/main.ts';
import { packageRoot } from '../lib/paths.ts';

export const COMMITTED_OPENAPI = join(packageRoot, 'docs', 'openapi.json');

await runMain('npm run openapi', async () => {
  await writeFile(COMMITTED_OPENAPI, openApiText(apiRoutes));
  console.error(`Wrote ${COMMITTED_OPENAPI}`);
});
