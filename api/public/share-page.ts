// The public eCard page of one recipient, `/e/<pageId>` (no key, not enveloped), and its open action
// `POST /e/<pageId>/open`: HTTP only; the page comes from the send's snapshot (services/sends/card-page/share-page.ts).
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import { openPage, sharePage } from '../../services/sends/card-page/share-page.ts';
import { defineFile, type FileResult } from '../http/route.ts';

const NOT_FOUND = 'This eCard does not exist, or it has not been sent.';
const PageParams = z.object({ pageId: z.string() });

function notFound(koa: Context): FileResult {
  koa.set('Cache-Control', 'no-store');
  koa.set('Referrer-Policy', 'no-referrer');
  return { status: 404, type: 'text/plain', body: NOT_FOUND };
}

export const sharePageRoutes = [
  defineFile({
    method: 'get',
    path: '/e/:pageId',
    params: PageParams,
    async handler({ params }, { services, koa }) {
      const nonce = randomBytes(16).toString('base64');
      // `?thanks=sent` is where the thank-you form comes back; any other parameter (a share's tags) is ignored.
      const page = await sharePage(services, params.pageId, nonce, { thanksSent: koa.query.thanks === 'sent' });
      if (page === null) return notFound(koa);
      // Media may come from anywhere over http(s); nothing else runs but the page's own nonce'd script and style,
      // which may post the open action to this service (a fetch, or the form without JavaScript). A YouTube or
      // Vimeo player is framed only on a page that embeds one.
      const frames = page.frameHosts.length > 0 ? ` frame-src ${page.frameHosts.join(' ')};` : '';
      koa.set(
        'Content-Security-Policy',
        `default-src 'none'; img-src https: http:; media-src https: http:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'self'; form-action 'self';${frames} base-uri 'none'; frame-ancestors 'none'`,
      );
      koa.set('Referrer-Policy', 'no-referrer');
      koa.set('Cache-Control', 'no-store');
      return { type: 'text/html; charset=utf-8', body: page.html };
    },
  }),
  // A person opened the card (the envelope's gesture, or seen for 2 s where it shows open at once). No body.
  defineFile({
    method: 'post',
    path: '/e/:pageId/open',
    params: PageParams,
    async handler({ params }, { services, koa }) {
      if (!(await openPage(services, params.pageId))) return notFound(koa);
      koa.set('Cache-Control', 'no-store');
      return { seeOther: `/e/${params.pageId}` };
    },
  }),
];
