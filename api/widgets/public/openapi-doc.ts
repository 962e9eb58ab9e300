// The widget API's own OpenAPI document, `GET /v2/widget/openapi.json`: built from the widget surface's routes by
// the same generator as the key API's (api/openapi.ts), committed as docs/widget-openapi.json (`npm run openapi`).
import { buildOpenApiDocument, openApiText, WIDGET_API_DOCUMENT } from '../../openapi.ts';
import { defineFile, isWidgetRoute, type AnyRoute } from '../../http/route.ts';

export const WIDGET_OPENAPI_PATH = '/openapi.json';

const widgetRoutesOf = (routes: readonly AnyRoute[]) => routes.filter(isWidgetRoute);

/** The committed text (docs/widget-openapi.json). */
export const widgetOpenApiText = (routes: readonly AnyRoute[]) => openApiText(widgetRoutesOf(routes), WIDGET_API_DOCUMENT);

/** The document's route, registered before `/:vanity_id` so that path is never read as a widget's. */
export function widgetOpenApiRoute(routes: () => readonly AnyRoute[]): AnyRoute {
  let text: string | undefined;
  return defineFile({
    method: 'get',
    path: WIDGET_OPENAPI_PATH,
    async handler() {
      text ??= JSON.stringify(buildOpenApiDocument(widgetRoutesOf(routes()), WIDGET_API_DOCUMENT));
      return { type: 'application/json', body: text };
    },
  });
}
