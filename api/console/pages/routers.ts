// Every router of the console's pages: the session pages (sign-in, home, mode, step-up, sign-out) and one per group.
import type Router from '@koa/router';
import type { ApiServices, ApiState } from '../../context.ts';
import { consolePagesRouter } from './router.ts';
import { consoleKeyPagesRouter } from './keys.ts';
import { consoleTokenPagesRouter } from './tokens.ts';
import { consoleDeletePagesRouter } from './deletes.ts';
import { consoleWebhookPagesRouter } from './webhooks.ts';
import { consoleRewardPagesRouter } from './rewards.ts';
import { consoleSettingsPagesRouter } from './settings.ts';
import { consoleOutboxPagesRouter } from './outbox.ts';
import { consolePasswordPagesRouter } from './password.ts';

export function consolePageRouters(services: ApiServices): Array<Router<ApiState>> {
  return [
    consolePagesRouter(services),
    consoleKeyPagesRouter(services),
    consoleTokenPagesRouter(services),
    consoleDeletePagesRouter(services),
    consoleWebhookPagesRouter(services),
    consoleRewardPagesRouter(services),
    consoleSettingsPagesRouter(services),
    consoleOutboxPagesRouter(services),
    consolePasswordPagesRouter(services),
  ];
}
