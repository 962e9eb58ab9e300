// The public claim page of a gift card, `/g/<token>` (no key, not enveloped): GET shows the gift and a button (mail
// scanners prefetch GETs, so a GET reveals and changes nothing); POST, from the button, reveals the code and marks
// the order claimed (services/rewards/claim-page.ts). The token is the bearer secret: the request log masks it
// (api/middleware/request-log.ts), and no answer may be cached, framed or leak it as a referrer.
import { randomBytes } from 'node:crypto';
import Router, { type RouterContext } from '@koa/router';
import type { ServiceContext } from '../services/context.ts';
import { claimOfferPage, claimRevealPage, type ClaimPage } from '../services/rewards/claim-page.ts';
import type { ApiState } from './context.ts';

export function giftClaimPageRouter(services: ServiceContext): Router<ApiState> {
  const router = new Router<ApiState>();
  const answer = async (ctx: RouterContext<ApiState>, render: (nonce: string) => Promise<ClaimPage>) => {
    // 18 bytes: base64 without `=` padding, which the template would write as an entity.
    const nonce = randomBytes(18).toString('base64');
    // Set before rendering, so a failure's answer carries them too.
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`);
    const page = await render(nonce);
    ctx.status = page.status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page.html;
  };
  router.get('/g/:token', (ctx) => answer(ctx, (nonce) => claimOfferPage(services, ctx.params.token ?? '', nonce)));
  router.post('/g/:token', (ctx) => answer(ctx, (nonce) => claimRevealPage(services, ctx.params.token ?? '', nonce)));
  return router;
}
