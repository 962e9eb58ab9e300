// Every route of the console's pages (under /v2/console): the session pages (sign-in, home, mode, step-up,
// sign-out) and one list per group.
import type { AnyRoute } from '../../http/route.ts';
import { deletePageRoutes } from './deletes.ts';
import { keyPageRoutes } from './keys.ts';
import { outboxPageRoutes } from './outbox.ts';
import { passwordPageRoutes } from './password.ts';
import { rewardPageRoutes } from './rewards.ts';
import { sessionPageRoutes } from './session.ts';
import { settingsPageRoutes } from './settings.ts';
import { tokenPageRoutes } from './tokens.ts';
import { webhookPageRoutes } from './webhooks.ts';

export const consolePageRoutes: readonly AnyRoute[] = [
  ...sessionPageRoutes,
  ...keyPageRoutes,
  ...tokenPageRoutes,
  ...deletePageRoutes,
  ...webhookPageRoutes,
  ...rewardPageRoutes,
  ...settingsPageRoutes,
  ...outboxPageRoutes,
  ...passwordPageRoutes,
];
