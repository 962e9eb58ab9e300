// The public eCard page of a send, `/e/<statVanityId>` (no key): the card with its envelope settings; the
// first view marks the send opened. Not enveloped.
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Models } from '../models/index.ts';
import { markOpened, sendForPage } from '../services/sends/answers.ts';
import { renderPage } from '../services/sends/render.ts';
import type { ApiState } from './context.ts';

export function sharePageRouter(models: Models, now: () => Date): Router<ApiState> {
  const router = new Router<ApiState>();
  router.get('/e/:statVanityId', async (ctx) => {
    const send = await sendForPage(models, ctx.params.statVanityId ?? '');
    const ecard = send ? await models.Ecard.findByPk(send.ecard_id) : null;
    const recipient = send ? await models.SendRecipient.findOne({ where: { send_id: send.id }, order: [['position', 'ASC']] }) : null;
    if (!send || !ecard || !recipient?.rendered_html) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'This eCard does not exist, or it has not been sent.';
      return;
    }
    await markOpened(models, send, now());
    const nonce = randomBytes(16).toString('base64');
    // Media may come from anywhere over https; nothing else runs but the page's own nonce'd script and style.
    ctx.set('Content-Security-Policy', `default-src 'none'; img-src https: http:; media-src https: http:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = renderPage(send, ecard, recipient, nonce);
  });
  return router;
}
