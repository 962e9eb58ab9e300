// The hosted page and gallery (issue 31 item 2): `/w/{vanity_id}` (the gallery, `?page=N`), `/w/{vanity_id}/e/{ecard}`
// (the form for one card, `?error=<code>` after a refused send) and `/w/{vanity_id}/sent` (thanks). HTTP only: the
// pages are services/widgets/public/page.ts's. Unknown, private and campaign widgets, and cards the gallery does not show,
// answer one 404 alike.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import { frameAncestors } from '../../../services/widgets/public/framing.ts';
import { readGallery, type Gallery } from '../../../services/widgets/public/gallery.ts';
import { renderFormPage, renderGalleryPage, renderSentPage } from '../../../services/widgets/public/page.ts';
import { defineFile, type AnyRoute, type FileResult, type PublicContext } from '../../http/route.ts';

const NOT_FOUND = 'There is no public widget here.';
const WidgetParams = z.object({ vanity_id: z.string() });
const FormParams = z.object({ vanity_id: z.string(), ecard_vanity_id: z.string() });

const one = (value: unknown): string | undefined => (typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined);

/** The headers every widget page answers with: no caching, no referrer, no cookies, framed only where allowed. */
function pageHeaders(koa: Context, nonce: string, ancestors: string): void {
  koa.set('Cache-Control', 'no-store');
  koa.set('Referrer-Policy', 'no-referrer');
  koa.set(
    'Content-Security-Policy',
    `default-src 'none'; img-src 'self' https: http: data:; style-src 'nonce-${nonce}'; script-src 'self' 'nonce-${nonce}'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors ${ancestors}`,
  );
}

function notFoundPage(koa: Context): FileResult {
  koa.set('Cache-Control', 'no-store');
  koa.set('Referrer-Policy', 'no-referrer');
  koa.set('Content-Security-Policy', "default-src 'none'; base-uri 'none'");
  return { status: 404, type: 'text/plain; charset=utf-8', body: NOT_FOUND };
}

/** Reads the gallery for a page; a 404 of any kind is the one not-found page. */
async function page(context: PublicContext, vanityId: string, options: Parameters<typeof readGallery>[2], render: (gallery: Gallery, nonce: string) => string): Promise<FileResult> {
  const { services, koa } = context;
  let gallery: Gallery;
  try {
    gallery = await readGallery(services, vanityId, options);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return notFoundPage(koa);
    throw err;
  }
  const nonce = randomBytes(16).toString('base64');
  pageHeaders(koa, nonce, frameAncestors(gallery.widget.display.allowedOrigins, services.config.widgetAllowHttpOrigins));
  return { type: 'text/html; charset=utf-8', body: render(gallery, nonce) };
}

/** A share link the thank-you page may show: one of this service's card pages, nothing else. */
function cardLink(publicBaseUrl: string, value: string | undefined): string | null {
  if (!value || value.length > 500) return null;
  try {
    const url = new URL(value);
    const base = new URL(publicBaseUrl);
    return url.origin === base.origin && url.pathname.startsWith('/e/') ? url.href : null;
  } catch {
    return null;
  }
}

export const widgetPageRoutes: AnyRoute[] = [
  defineFile({
    method: 'get',
    path: '/w/:vanity_id',
    params: WidgetParams,
    async handler({ params }, context) {
      const pageNumber = Number(one(context.koa.query.page));
      const options = { page: Number.isInteger(pageNumber) && pageNumber > 0 ? pageNumber : 1 };
      return page(context, params.vanity_id, options, (gallery, nonce) => renderGalleryPage({ gallery, nonce, now: context.services.now() }));
    },
  }),
  defineFile({
    method: 'get',
    path: '/w/:vanity_id/e/:ecard_vanity_id',
    params: FormParams,
    async handler({ params }, context) {
      const error = one(context.koa.query.error);
      const code = error && /^\w{1,40}$/.test(error) ? error : null;
      return page(context, params.vanity_id, { ecard: params.ecard_vanity_id }, (gallery, nonce) => renderFormPage({ gallery, nonce, now: context.services.now() }, code));
    },
  }),
  defineFile({
    method: 'get',
    path: '/w/:vanity_id/sent',
    params: WidgetParams,
    async handler({ params }, context) {
      const { query } = context.koa;
      const ecard = one(query.ecard);
      const mode = one(query.mode) ?? 'email';
      const shareUrl = cardLink(context.services.config.publicBaseUrl, one(query.share));
      // The thank-you page counts nothing; a card no longer shown is simply not named.
      const options = { count: false, ...(ecard && /^[\w-]{1,64}$/.test(ecard) ? { ecard } : {}) };
      const result = await page(context, params.vanity_id, options, (gallery, nonce) => renderSentPage({ gallery, nonce, now: context.services.now() }, { mode, shareUrl }));
      if (result && 'status' in result && result.status === 404 && options.ecard) {
        return page(context, params.vanity_id, { count: false }, (gallery, nonce) => renderSentPage({ gallery, nonce, now: context.services.now() }, { mode, shareUrl }));
      }
      return result;
    },
  }),
];
