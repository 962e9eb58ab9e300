// Every router of the console's pages: the session pages (sign-in, home, mode, step-up, sign-out) and one per group.
import type Router from '@koa/router';
import type { ApiServices, ApiState } from '../../context.ts';
import { consolePagesRouter } from './router.ts';

export function consolePageRouters(services: ApiServices): Array<Router<ApiState>> {
  return [consolePagesRouter(services)];
}
