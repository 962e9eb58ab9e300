// The Customize tab's live preview: `GET /preview/widget/:id` the saved widget's gallery, `POST` the same with the
// unsaved Customize form applied in memory (never saved), both through the hosted page's renderer
// (services/widgets/public/page.ts), private widgets included, counting no view. A refused value is a 400 page.
import { randomBytes } from 'node:crypto';
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { galleryOf } from '../../../services/widgets/public/gallery.ts';
import { renderGalleryPage } from '../../../services/widgets/public/page.ts';
import { checkedFields } from '../../../services/widgets/admin/widgets.ts';
import { definePage, framed, type AnyRoute } from '../../http/route.ts';
import { WidgetIdParams } from '../../widgets/schema.ts';
import { customizeInput, formError } from './form.ts';
import { widgetOf } from './page.ts';

/** The hosted widget page's CSP (api/widgets/public/pages.ts) without frame-ancestors: the kit adds `'self'`. */
const widgetCsp = (nonce: string) =>
  `default-src 'none'; img-src 'self' https: http: data:; style-src 'nonce-${nonce}'; script-src 'self' 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; base-uri 'none'`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A refused value, shown in the frame in place of the gallery (the form names it too when saved). */
function refused(message: string, status: number) {
  const nonce = randomBytes(16).toString('base64');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview refused</title><style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;margin:1.5rem;color:#1f2937}p.error{color:#b91c1c;font-weight:600}</style></head><body><p class="error" role="alert">${escape(message)}</p><p>Nothing was saved. Fix the value and preview again.</p></body></html>`;
  return framed(html, `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'`, status);
}

async function preview(services: ServiceContext, widget: Widget) {
  const gallery = await galleryOf(services, widget);
  const nonce = randomBytes(16).toString('base64');
  return framed(renderGalleryPage({ gallery, nonce, now: services.now() }), widgetCsp(nonce));
}

export const widgetPreviewRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'widgets', level: 'view' },
    path: '/preview/widget/:id',
    params: WidgetIdParams,
    async handler({ params }, { services, account }) {
      return preview(services, await widgetOf(services, account.id, params.id));
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'widgets', level: 'manage' },
    path: '/preview/widget/:id',
    audit: { none: 'a preview renders; nothing changes' },
    params: WidgetIdParams,
    async handler({ params, form }, { services, account }) {
      const widget = await widgetOf(services, account.id, params.id);
      try {
        // The save's own checks (display bounds, sanitized CSS), then the values set on this instance only.
        widget.set(checkedFields(services, customizeInput(widget, form)));
      } catch (err) {
        const { message, status } = formError(err);
        return refused(message, status);
      }
      return preview(services, widget);
    },
  }),
];
