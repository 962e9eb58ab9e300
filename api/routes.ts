// Every route of the key-authenticated API, in the order the OpenAPI document lists their areas.
import { accountSettingsRoutes } from './account-settings/router.ts';
import { auditRoutes } from './audit/router.ts';
import { brandRoutes } from './brands/router.ts';
import { automationRoutes } from './automations/router.ts';
import { campaignRoutes } from './campaigns/router.ts';
import { directoryRoutes } from './directory/router.ts';
import { ecardRoutes } from './ecards/router.ts';
import { giftCardRoutes } from './gift-cards/router.ts';
import { keyInfoRoutes } from './key-info/router.ts';
import { eraseAddressRoutes } from './sends/erase-address.ts';
import { sendRoutes } from './sends/router.ts';
import { teamRoutes } from './team/router.ts';
import type { AnyKeyRoute } from './http/route.ts';
import { webhookRoutes } from './webhooks/router.ts';
import { widgetRoutes } from './widgets/router.ts';
import { widgetStatsRoutes } from './widgets/stats.ts';

export const apiRoutes: readonly AnyKeyRoute[] = [...ecardRoutes, ...sendRoutes, ...eraseAddressRoutes, ...widgetRoutes, ...widgetStatsRoutes, ...brandRoutes, ...campaignRoutes, ...automationRoutes, ...directoryRoutes, ...webhookRoutes, ...giftCardRoutes, ...accountSettingsRoutes, ...teamRoutes, ...auditRoutes, ...keyInfoRoutes];
