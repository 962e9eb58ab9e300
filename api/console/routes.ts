// Every route of the console's JSON API (session-authenticated, out of the public OpenAPI).
import type { AnyRoute } from '../http/route.ts';
import { consoleKeyRoutes } from './keys/router.ts';
import { consoleTokenRoutes } from './tokens/router.ts';
import { consoleDeleteRoutes } from './deletes/router.ts';
import { consoleSessionRoutes } from './session/router.ts';
import { consoleRewardRoutes } from './rewards/router.ts';
import { consoleSettingsRoutes } from './settings/router.ts';
import { consoleOutboxRoutes } from './outbox/router.ts';
import { consoleWebhookRoutes } from './webhooks/router.ts';
import { consoleCampaignRoutes } from './campaigns/router.ts';
import { consoleProfileRoutes } from './profile/router.ts';
import { consoleAuditRoutes } from './audit/router.ts';
import { consoleTeamRoutes } from './team/router.ts';

export const consoleRoutes: readonly AnyRoute[] = [...consoleSessionRoutes, ...consoleKeyRoutes, ...consoleTokenRoutes, ...consoleDeleteRoutes, ...consoleRewardRoutes, ...consoleSettingsRoutes, ...consoleOutboxRoutes, ...consoleWebhookRoutes, ...consoleCampaignRoutes, ...consoleProfileRoutes, ...consoleAuditRoutes, ...consoleTeamRoutes];
