// The console's pages: Handlebars views under templates/console/, each shown inside one layout (the navigation, the
// sandbox banner, the sign-out and mode forms with the session's CSRF token), with the console's headers. Views
// never use `{{{`: everything is escaped.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { Context } from 'koa';
import { packageRoot } from '../../../lib/paths.ts';
import { type Role, type RoleArea, type RoleNeed, roleAllows } from '../../../services/team/roles.ts';
import { pageMeta } from '../../schema-helpers.ts';

const folder = join(packageRoot, 'templates', 'console');
const handlebars = Handlebars.create();
for (const file of readdirSync(folder).filter((f) => f.endsWith('.hbs') && f !== 'layout.hbs')) {
  handlebars.registerPartial(file.slice(0, -'.hbs'.length), readFileSync(join(folder, file), 'utf8'));
}
// preventIndent: an indented partial would otherwise indent every line of its output, values included (an email's
// text in <pre>).
// Times as owners read them, one format on every page: `{{when createdat}}` → 2026-11-25 18:40:05 UTC.
handlebars.registerHelper('when', (iso: unknown) => (typeof iso === 'string' && iso !== '' ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : ''));
// `{{#if (eq tab "ecards")}}`: which tab, option or state a view marks.
handlebars.registerHelper('eq', (a: unknown, b: unknown) => a === b);
// A refused form's field (api/console/kit/field-errors.ts): `<input id="x"{{invalid fieldErrors "x" "x-hint"}}>`
// marks it invalid and points it at its message (and its hint, given or not); `{{fieldError fieldErrors "x"}}` is
// the message itself, beside the field.
const errorOf = (errors: unknown, name: string) => (errors && typeof errors === 'object' ? (errors as Record<string, unknown>)[name] : undefined);
handlebars.registerHelper('invalid', (errors: unknown, name: string, ...rest: unknown[]) => {
  const hint = typeof rest[0] === 'string' ? rest[0] : undefined;
  const error = errorOf(errors, name) ? `${name}-error` : undefined;
  const described = [hint, error].filter((id): id is string => id !== undefined).map((id) => Handlebars.escapeExpression(id)).join(' ');
  return new Handlebars.SafeString(`${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`);
});
handlebars.registerHelper('fieldError', (errors: unknown, name: string) => {
  const error = errorOf(errors, name);
  if (typeof error !== 'string' || error === '') return '';
  return new Handlebars.SafeString(`<p class="field-error" id="${Handlebars.escapeExpression(name)}-error">${Handlebars.escapeExpression(error)}</p>`);
});
// `{{#table-wrap "Recipients"}}<table>…</table>{{/table-wrap}}`: the one wrapper of every console table. It scrolls a
// wide table inside itself, so a keyboard user must be able to focus it to scroll it (axe's scrollable-region-focusable)
// and a screen reader names the region it lands in.
handlebars.registerHelper('table-wrap', function (this: unknown, label: unknown, options: Handlebars.HelperOptions) {
  const name = handlebars.escapeExpression(String(label));
  return new handlebars.SafeString(`<div class="table-wrap" tabindex="0" role="region" aria-label="${name}">${options.fn(this)}</div>`);
});
const layout = handlebars.compile(readFileSync(join(folder, 'layout.hbs'), 'utf8'), { strict: false, preventIndent: true });
export const stylesheet = readFileSync(join(folder, 'console.css'), 'utf8');

// The console's sections, as the decisions order them (Home, Send, Widgets, eCards, Brands, Campaigns, Automations,
// Directory, Rewards, Developers, Settings); a section joins the list when its pages are built, never before. Each
// link shows only to a role its page allows (`need` is the page's declared role: test/console/roles.test.ts checks).
export interface NavItem {
  href: string;
  label: string;
  need: RoleNeed;
  /** Sub-pages shown under a group (Developers, Settings); the group shows when one of them does, linking the first. */
  children?: NavItem[];
}
const view = (area: RoleArea): RoleNeed => ({ area, level: 'view' });
export const NAV: NavItem[] = [
  { href: '/v2/console/', label: 'Home', need: view('analytics') },
  {
    href: '/v2/console/send',
    label: 'Send',
    need: 'member',
    children: [
      { href: '/v2/console/send', label: 'Send a card', need: { area: 'sends', level: 'manage' } },
      { href: '/v2/console/sends', label: 'Sends', need: view('sends') },
    ],
  },
  { href: '/v2/console/widgets', label: 'Widgets', need: view('widgets') },
  { href: '/v2/console/ecards', label: 'eCards', need: view('ecards') },
  { href: '/v2/console/brands', label: 'Brands', need: view('brands') },
  { href: '/v2/console/campaigns', label: 'Campaigns', need: view('campaigns') },
  { href: '/v2/console/automations', label: 'Automations', need: view('automations') },
  {
    href: '/v2/console/directory/members',
    label: 'Directory',
    need: 'member',
    children: [
      { href: '/v2/console/directory/members', label: 'Members', need: view('directory') },
      { href: '/v2/console/directory/departments', label: 'Departments', need: view('directory') },
      { href: '/v2/console/settings', label: 'Custom fields', need: view('directory') },
      { href: '/v2/console/settings#suppressions', label: 'Suppressions', need: view('directory') },
      { href: '/v2/console/directory/import', label: 'Import', need: { area: 'directory', level: 'manage' } },
    ],
  },
  { href: '/v2/console/rewards', label: 'Rewards', need: view('gift_cards') },
  {
    href: '/v2/console/keys',
    label: 'Developers',
    need: 'member',
    children: [
      { href: '/v2/console/keys', label: 'API keys', need: 'admin' },
      { href: '/v2/console/tokens', label: 'Confirmation tokens', need: 'member' },
      { href: '/v2/console/webhooks', label: 'Webhooks', need: view('webhooks') },
    ],
  },
  {
    href: '/v2/console/local-time',
    label: 'Settings',
    need: 'member',
    children: [
      { href: '/v2/console/local-time', label: 'Time and quiet hours', need: view('settings') },
      { href: '/v2/console/settings/team', label: 'Team', need: view('team') },
      { href: '/v2/console/outbox', label: 'Outbox', need: view('sends') },
      { href: '/v2/console/password', label: 'Password', need: 'member' },
      { href: '/v2/console/profile/sessions', label: 'Sessions', need: 'member' },
      { href: '/v2/console/settings/audit', label: 'Audit log', need: view('audit') },
    ],
  },
];

/**
 * Whether `link` is the section of `path` (a section's own sub-pages count: /widgets/7/customize is Widgets); a link to
 * a part of a page (`/settings#suppressions`) marks that page too.
 */
const within = (path: string, link: string) => {
  const href = link.replace(/#.*$/, '');
  return href === '/v2/console/' ? path === href || path === '/v2/console' : path === href || path.startsWith(`${href}/`);
};

/** The navigation as the layout shows it for `path` and `role`: the links the role may follow, the current section (and sub-page) marked. */
export function navFor(path: string, role: Role | undefined) {
  const allowed = (item: NavItem) => role !== undefined && roleAllows(role, item.need);
  // The most specific link marks the page: /settings/audit is the audit log, not the /settings page's custom fields.
  const matching = NAV.flatMap((item) => [item, ...(item.children ?? [])]).filter((item) => within(path, item.href)).map((item) => item.href.replace(/#.*$/, ''));
  const longest = Math.max(0, ...matching.map((href) => href.length));
  const current = (href: string) => within(path, href) && href.replace(/#.*$/, '').length === longest;
  return NAV.filter(allowed).flatMap((item): { href: string; label: string; current: boolean; children?: { href: string; label: string; current: boolean }[] }[] => {
    if (!item.children) return [{ href: item.href, label: item.label, current: current(item.href) }];
    const children = item.children.filter(allowed).map((child) => ({ href: child.href, label: child.label, current: current(child.href) }));
    const first = children[0];
    return first ? [{ href: first.href, label: item.label, children, current: children.some((c) => c.current) }] : [];
  });
}

/** The console's headers on every page: no framing, scripts or foreign forms; nothing cached. A page with a style nonce (the eCard editor, for Trix's injected styles) allows that nonce's styles, nothing wider. */
export function pageHeaders(ctx: Context, styleNonce?: string): void {
  const style = styleNonce ? `; style-src 'self' 'nonce-${styleNonce}'` : '';
  ctx.set('Content-Security-Policy', `default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'${style}`);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
}

export interface PageData {
  title: string;
  /** The view (a file name under templates/console/ without .hbs). */
  view: string;
  /** The signed-in person (absent on the sign-in page): the layout shows the navigation. */
  me?: { owner_email: string; account_name: string; plan: string } | undefined;
  /** Their role: the navigation shows what it allows. */
  role?: Role | undefined;
  csrf?: string | undefined;
  sandbox?: boolean | undefined;
  notice?: string | undefined;
  error?: string | undefined;
  /** Stylesheets and scripts of this page, by their names under /v2/console/assets/ (see assets.ts). */
  styles?: string[] | undefined;
  scripts?: string[] | undefined;
  /** A per-response nonce for inline styles a library injects (Trix): sent in the CSP and as Trix's meta tag. */
  styleNonce?: boolean | undefined;
  [key: string]: unknown;
}

export function renderPage(ctx: Context, data: PageData, status = 200): void {
  const styleNonce = data.styleNonce ? randomBytes(16).toString('base64') : undefined;
  pageHeaders(ctx, styleNonce);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = layout({ ...data, styleNonce, nav: navFor(ctx.path, data.role) });
}

/** A list page's paging: its meta, and links to the pages before and after it (undefined at either end). */
export function paging(page: number, perPage: number, total: number, link: (page: number) => string) {
  const meta = pageMeta(page, perPage, total);
  return { meta, previous: meta.page > 1 ? link(meta.page - 1) : undefined, next: meta.page < meta.totalPages ? link(meta.page + 1) : undefined };
}
