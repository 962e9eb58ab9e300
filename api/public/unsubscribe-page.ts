// The public one-click unsubscribe link of bulk emails, `/u/<token>` (no key, not enveloped): GET shows a button
// (mail scanners prefetch GETs, so a GET changes nothing); POST, from the button or a mail client's one-click
// (RFC 8058), suppresses the address.
import type { Context } from 'koa';
import { z } from 'zod';
import { unsubscribe, unsubscribeTarget } from '../../services/sends/delivery/unsubscribe.ts';
import { defineFile, type FileResult } from '../http/route.ts';

const page = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Unsubscribe</title></head><body>${body}</body></html>`;

const TokenParams = z.object({ token: z.string() });

function headers(koa: Context): void {
  koa.set('Content-Security-Policy', "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  koa.set('Referrer-Policy', 'no-referrer');
  koa.set('Cache-Control', 'no-store');
}

const html = (body: string, status?: number): FileResult => ({ ...(status ? { status } : {}), type: 'text/html; charset=utf-8', body: page(body) });
const unknown = () => html('<p>This unsubscribe link is not valid.</p>', 404);

export const unsubscribePageRoutes = [
  defineFile({
    method: 'get',
    path: '/u/:token',
    params: TokenParams,
    async handler({ params }, { services, koa }) {
      headers(koa);
      if (!(await unsubscribeTarget(services, params.token))) return unknown();
      return html(`<form method="post"><p>Stop receiving these eCards at this address?</p><button type="submit">Unsubscribe</button></form>`);
    },
  }),
  defineFile({
    method: 'post',
    path: '/u/:token',
    params: TokenParams,
    async handler({ params }, { services, koa }) {
      headers(koa);
      if (!(await unsubscribe(services, params.token))) return unknown();
      return html('<p>You are unsubscribed. You will get no more of these eCards at this address.</p>');
    },
  }),
];
