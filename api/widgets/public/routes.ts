// The embeddable widget's routes: its public JSON API (under /v2/widget, its own OpenAPI document) and its pages
// and loader (in the public group: /w/, /embed/).
import type { AnyRoute } from '../../http/route.ts';
import { embedRoutes } from './embed.ts';
import { galleryApiRoutes } from './gallery-api.ts';
import { widgetOpenApiRoute } from './openapi-doc.ts';
import { widgetPageRoutes } from './pages.ts';
import { sendApiRoutes } from './send-api.ts';
import { sendPageRoutes } from './send-page.ts';
import { verifyApiRoutes } from './verify-api.ts';

export const WIDGET_API_PREFIX = '/v2/widget';

/** The widget API's routes (mounted under WIDGET_API_PREFIX); its OpenAPI document first, before `/:vanity_id`. */
export const widgetApiRoutes: readonly AnyRoute[] = [widgetOpenApiRoute(() => widgetApiRoutes), ...galleryApiRoutes, ...sendApiRoutes, ...verifyApiRoutes];

/** The widget's pages and loader (mounted with the public pages). */
export const widgetPublicRoutes: readonly AnyRoute[] = [...widgetPageRoutes, ...sendPageRoutes, ...embedRoutes];
