// Every public route (no key, no session): the root (to the console), the probes, the key API's OpenAPI document
// and docs page, media, and the pages people reach from an email (share and its thank-you, unsubscribe, gift claim).
import type { Connection } from '@temporalio/client';
import { healthRoutes } from '../health/router.ts';
import type { AnyRoute } from '../http/route.ts';
import { isKeyRoute } from '../http/route.ts';
import { buildOpenApiDocument } from '../openapi.ts';
import { docsRoutes } from './docs.ts';
import { giftClaimPageRoutes } from './gift-claim-page.ts';
import { mediaRoutes } from './media.ts';
import { rootRoutes } from './root.ts';
import { sharePageRoutes } from './share-page.ts';
import { thanksRoutes } from './thanks.ts';
import { unsubscribePageRoutes } from './unsubscribe-page.ts';
import { widgetPublicRoutes } from '../widgets/public/routes.ts';

/** `keyRoutes`: the key API's routes, documented by the OpenAPI document served here. */
export function publicRoutes(keyRoutes: readonly AnyRoute[], readinessProbe: Connection): AnyRoute[] {
  return [
    ...rootRoutes,
    ...healthRoutes(readinessProbe),
    ...docsRoutes(buildOpenApiDocument(keyRoutes.filter(isKeyRoute))),
    ...mediaRoutes,
    ...sharePageRoutes,
    ...thanksRoutes,
    ...unsubscribePageRoutes,
    ...giftClaimPageRoutes,
    ...widgetPublicRoutes,
  ];
}
