// The public claim page of a gift card, `/g/<token>` (no key, not enveloped): GET shows the gift and a button (mail
// scanners prefetch GETs, so a GET reveals and changes nothing); POST, from the button, reveals the code and marks
// the order claimed (services/rewards/claim-page.ts). The token is the bearer secret: the request log masks it
// (api/middleware/request-log.ts), and no answer may be cached, framed or leak it as a referrer.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import { claimOfferPage, claimRevealPage, type ClaimPage } from '../../services/rewards/claim-page.ts';
import { defineFile, type FileResult } from '../http/route.ts';

const TokenParams = z.object({ token: z.string() });

async function answer(koa: Context, render: (nonce: string) => Promise<ClaimPage>): Promise<FileResult> {
  // 18 bytes: base64 without `=` padding, which the template would write as an entity.
  const nonce = randomBytes(18).toString('base64');
  // Set before rendering, so a failure's answer carries them too.
  koa.set('Cache-Control', 'no-store');
  koa.set('Referrer-Policy', 'no-referrer');
  koa.set('Content-Security-Policy', `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`);
  const page = await render(nonce);
  return { status: page.status, type: 'text/html; charset=utf-8', body: page.html };
}

export const giftClaimPageRoutes = [
  defineFile({
    method: 'get',
    path: '/g/:token',
    params: TokenParams,
    handler: ({ params }, { services, koa }) => answer(koa, (nonce) => claimOfferPage(services, params.token, nonce)),
  }),
  defineFile({
    method: 'post',
    path: '/g/:token',
    params: TokenParams,
    handler: ({ params }, { services, koa }) => answer(koa, (nonce) => claimRevealPage(services, params.token, nonce)),
  }),
];
