// Every route of the console's JSON API (session-authenticated, out of the public OpenAPI).
import type { AnyConsoleRoute } from './route.ts';
import { consoleSessionRoutes } from './session/router.ts';

export const consoleRoutes: readonly AnyConsoleRoute[] = [...consoleSessionRoutes];
