// The public one-click unsubscribe link of bulk emails, `/u/<token>` (no key, not enveloped): GET shows a button
// (mail scanners prefetch GETs, so a GET changes nothing); POST, from the button or a mail client's one-click
// (RFC 8058), suppresses the address.
import Router, { type RouterContext } from '@koa/router';
import type { ServiceContext } from '../services/context.ts';
import { unsubscribe, unsubscribeTarget } from '../services/campaigns/unsubscribe.ts';
import type { ApiState } from './context.ts';

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title></head><body>${body}</body></html>`;

export function unsubscribePageRouter(services: ServiceContext): Router<ApiState> {
  const router = new Router<ApiState>();
  const headers = (ctx: RouterContext<ApiState>) => {
    ctx.set('Content-Security-Policy', "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
  };
  const unknown = (ctx: RouterContext<ApiState>) => {
    ctx.status = 404;
    ctx.body = page('<p>This unsubscribe link is not valid.</p>');
  };
  router.get('/u/:token', async (ctx) => {
    headers(ctx);
    if (!(await unsubscribeTarget(services.models, ctx.params.token ?? ''))) return unknown(ctx);
    ctx.body = page(
      `<form method="post"><p>Stop receiving these eCards at this address?</p><button type="submit">Unsubscribe</button></form>`,
    );
  });
  router.post('/u/:token', async (ctx) => {
    headers(ctx);
    if (!(await unsubscribe(services, ctx.params.token ?? ''))) return unknown(ctx);
    ctx.body = page('<p>You are unsubscribed. You will get no more of these eCards at this address.</p>');
  });
  return router;
}
