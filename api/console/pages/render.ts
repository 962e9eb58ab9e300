// The console's pages: Handlebars views under templates/console/, each shown inside one layout (the navigation, the
// sandbox banner, the sign-out and mode forms with the session's CSRF token), with the console's headers. Views
// never use `{{{`: everything is escaped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { Context } from 'koa';
import { packageRoot } from '../../../lib/paths.ts';
import { pageMeta } from '../../schema-helpers.ts';

const folder = join(packageRoot, 'templates', 'console');
const handlebars = Handlebars.create();
for (const file of readdirSync(folder).filter((f) => f.endsWith('.hbs') && f !== 'layout.hbs')) {
  handlebars.registerPartial(file.slice(0, -'.hbs'.length), readFileSync(join(folder, file), 'utf8'));
}
// preventIndent: an indented partial would otherwise indent every line of its output, values included (an email's
// HTML in srcdoc, its text in <pre>).
// Times as owners read them, one format on every page: `{{when createdat}}` → 2026-11-25 18:40:05 UTC.
handlebars.registerHelper('when', (iso: unknown) => (typeof iso === 'string' && iso !== '' ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : ''));
const layout = handlebars.compile(readFileSync(join(folder, 'layout.hbs'), 'utf8'), { strict: false, preventIndent: true });
export const stylesheet = readFileSync(join(folder, 'console.css'), 'utf8');

// The console's sections; each group's page joins the list as it is built.
export const NAV = [
  { href: '/v2/console/', label: 'Home' },
  { href: '/v2/console/keys', label: 'API keys' },
  { href: '/v2/console/tokens', label: 'Confirmation tokens' },
  { href: '/v2/console/webhooks', label: 'Webhooks' },
  { href: '/v2/console/rewards', label: 'Rewards' },
  { href: '/v2/console/settings', label: 'Fields and suppressions' },
  { href: '/v2/console/outbox', label: 'Sandbox outbox' },
  { href: '/v2/console/password', label: 'Password' },
];

/** The console's headers on every page: no framing, scripts or foreign forms; nothing cached. */
export function pageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
}

export interface PageData {
  title: string;
  /** The view (a file name under templates/console/ without .hbs). */
  view: string;
  /** The signed-in owner (absent on the sign-in page): the layout shows the navigation. */
  me?: { owner_email: string; account_name: string; plan: string } | undefined;
  csrf?: string | undefined;
  sandbox?: boolean | undefined;
  notice?: string | undefined;
  error?: string | undefined;
  [key: string]: unknown;
}

export function renderPage(ctx: Context, data: PageData, status = 200): void {
  pageHeaders(ctx);
  const path = ctx.path;
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout({ ...data, nav: NAV.map((item) => ({ ...item, current: item.href === path })) });
}

/** A list page's paging: its meta, and links to the pages before and after it (undefined at either end). */
export function paging(page: number, perPage: number, total: number, link: (page: number) => string) {
  const meta = pageMeta(page, perPage, total);
  return { meta, previous: meta.page > 1 ? link(meta.page - 1) : undefined, next: meta.page < meta.totalPages ? link(meta.page + 1) : undefined };
}
