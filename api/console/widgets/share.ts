// The Preview & Share tab: the public switch, the embed snippet (the loader's script and its anchor, as
// services/widgets/public/embed.ts serves them), the hosted link and the origins allowed to frame the widget.
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { WIDGET_ANCHOR_PREFIX } from '../../../services/widgets/public/embed.ts';
import { saveWidget } from '../../../services/widgets/admin/widgets.ts';
import { definePage, page, seeOther, type AnyRoute } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { WidgetIdParams } from '../../widgets/schema.ts';
import { fieldRefusal, formValues, shareInput, type Form } from './form.ts';
import { errorView, type FieldErrors } from '../kit/field-errors.ts';
import { noticeOf, tabPage, widgetOf, widgetPath } from './page.ts';

/** The snippet a site pastes: the loader, then the anchor it fills (test/widgets/embed.browser.test.ts embeds it so). */
export function embedSnippet(publicBaseUrl: string, vanityId: string): string {
  return `<script src="${publicBaseUrl}/embed/widget/${vanityId}" async></script>\n<div id="${WIDGET_ANCHOR_PREFIX}${vanityId}"></div>`;
}

function sharePage(services: ServiceContext, widget: Widget, extra: { notice?: string | undefined; errors?: FieldErrors; typed?: Form }) {
  const base = services.config.publicBaseUrl;
  return tabPage(widget, 'share', 'widget-share', {
    notice: extra.notice,
    ...errorView(extra.errors),
    scripts: ['widget-share.js'],
    values: formValues(widget, extra.typed),
    snippet: embedSnippet(base, widget.vanity_id),
    hostedUrl: `${base}/w/${widget.vanity_id}`,
    previewUrl: `${CONSOLE_PREFIX}/preview/widget/${widget.id}`,
    httpAllowed: services.config.widgetAllowHttpOrigins,
  });
}

export const widgetShareRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/widgets/:id/share',
    params: WidgetIdParams,
    async handler({ params }, { services, account, koa }) {
      return page(sharePage(services, await widgetOf(services, account.id, params.id), { notice: noticeOf(koa) }));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/widgets/:id/share',
    audit: 'widgets.share_settings',
    params: WidgetIdParams,
    async handler({ params, form }, { services, account }) {
      const widget = await widgetOf(services, account.id, params.id);
      const wasPublic = Boolean(widget.public_share_enabled);
      let saved: Widget;
      try {
        saved = await saveWidget(services, account.id, { id: widget.id, widget: shareInput(widget, form), prices: undefined, token: undefined });
      } catch (err) {
        const { errors, status } = fieldRefusal(err);
        return page(sharePage(services, widget, { errors, typed: form }), status);
      }
      const done = saved.public_share_enabled === wasPublic ? 'saved' : saved.public_share_enabled ? 'public_on' : 'public_off';
      return seeOther(`${widgetPath(widget.id, 'share')}?done=${done}`);
    },
  }),
];
