// The one answer writer: a success in its envelope (standard or flat), a console page through the page renderer (and
// a page's failures as HTML pages), a public answer as its handler shaped it, a 303 See Other.
import type { Context } from 'koa';
import { ApiError } from '../../lib/errors.ts';
import { renderPage } from '../console/kit/render.ts';
import { successBody } from './envelope.ts';
import type { Envelope, FileResult, PageResult, PageSession } from './route.ts';

export function writeEnvelope(ctx: Context, envelope: Envelope, data: unknown, meta: unknown): void {
  ctx.status = 200;
  ctx.body = successBody(envelope, data, meta);
}

function writeSeeOther(ctx: Context, location: string): void {
  ctx.status = 303;
  ctx.redirect(location);
}

/** `signedIn`: the owner the layout shows (its header, the CSRF token of its forms); absent on the sign-in page. */
export function writePage(ctx: Context, result: PageResult, signedIn?: PageSession): void {
  if ('seeOther' in result) return writeSeeOther(ctx, result.seeOther);
  if ('framed' in result) return writeFramed(ctx, result.framed);
  if ('download' in result) return writeDownload(ctx, result.download);
  renderPage(ctx, signedIn ? { ...signedIn, ...result.view } : result.view, result.status);
}

/** An export from a console page: the console's headers, saved under its file name (an ASCII name: no quoting games). */
function writeDownload(ctx: Context, file: { body: NodeJS.ReadableStream | string; type: string; filename: string }): void {
  ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Disposition', `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`);
  ctx.status = 200;
  ctx.type = file.type;
  ctx.body = file.body;
}

/** A preview in a console page's iframe: only the console itself may frame it. */
function writeFramed(ctx: Context, framed: { html: string; csp: string; status?: number }): void {
  ctx.set('Content-Security-Policy', `${framed.csp}; frame-ancestors 'self'`);
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  ctx.status = framed.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = framed.html;
}

export function writeFile(ctx: Context, result: NonNullable<FileResult>): void {
  if ('seeOther' in result) return writeSeeOther(ctx, result.seeOther);
  if (result.status !== undefined) ctx.status = result.status;
  if (result.type !== undefined) ctx.type = result.type;
  ctx.body = result.body;
}

/** Page failures as an HTML page with the error's status (the JSON envelope is for the APIs). */
export async function htmlErrors(ctx: Context, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    for (const [name, value] of Object.entries(err.headers ?? {})) ctx.set(name, value);
    renderPage(ctx, { title: 'Something went wrong', view: 'error', message: err.message }, err.status);
  }
}
