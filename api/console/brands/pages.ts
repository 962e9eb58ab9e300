// The console's brands: list and editor, logo upload, an email preview in that brand.
import type { Context } from 'koa';
import { ApiError } from '../../../lib/errors.ts';
import { BRAND_FONTS, SOCIAL_NETWORKS } from '../../../models/Brand.ts';
import { deleteBrand, findBrandView, listBrands, saveBrand, type BrandView } from '../../../services/brands/brands.ts';
import { ownMediaFile } from '../../../services/media.ts';
import { BrandIdParams } from '../../brands/schema.ts';
import { definePage, page, seeOther, type AnyRoute, type PageResult } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { pageQuery } from '../../schema-helpers.ts';
import { brandFormOf, brandInputOf, readBrandBody, storeLogo } from './form.ts';
import { withInlineToken } from '../kit/inline-token.ts';
import { paging } from '../kit/render.ts';

const BASE = `${CONSOLE_PREFIX}/brands`;
const LIST_ROWS = 50;

const NOTICES: Record<string, string> = {
  saved: 'The brand is saved.',
  deleted: 'The brand is deleted; its eCards now show the default brand.',
};
const noticeOf = (ctx: Context) => NOTICES[String(ctx.query.done)] ?? undefined;

const FONT_LABELS: Record<(typeof BRAND_FONTS)[number], string> = {
  system: 'System (the reader’s own)',
  humanist: 'Humanist (Seravek, Gill Sans)',
  serif: 'Serif (Georgia)',
  mono: 'Monospace',
};
const COLOURS = [
  ['primary_color', 'Primary colour'],
  ['accent_color', 'Accent colour'],
  ['background_color', 'Background colour'],
  ['text_color', 'Text colour'],
] as const;
const SOCIAL_LABELS: Record<(typeof SOCIAL_NETWORKS)[number], string> = { twitter: 'X (Twitter)', facebook: 'Facebook', instagram: 'Instagram', linkedin: 'LinkedIn', youtube: 'YouTube' };

/** A saved brand as the editor's fields hold it (empty text for "none"). */
function valuesOf(brand: BrandView): Record<string, string> {
  const text = (v: string | null) => v ?? '';
  return {
    name: brand.name, logo_url: text(brand.logo_url), website: text(brand.website), address: text(brand.address), primary_color: text(brand.primary_color),
    accent_color: text(brand.accent_color), background_color: text(brand.background_color), text_color: text(brand.text_color), font: brand.font,
    footer_text: text(brand.footer_text), ...Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, text(brand.social[n])])),
  };
}

/** The image a console page may show for a URL: only our own media (the console's CSP loads images from itself alone). */
const shownImage = (publicBaseUrl: string, url: string | null | undefined) => (url && ownMediaFile(publicBaseUrl, url) ? url : undefined);

/** A colour as `<input type=color>` takes it (#rrggbb only): #rgb spelled out, anything else black. */
function pickerValue(colour: string | undefined): string {
  const value = (colour ?? '').trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(value)) return value;
  if (/^#[0-9a-f]{3}$/.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`;
  return '#000000';
}

interface EditorState {
  id: number;
  values: Record<string, string>;
  /** Whether the saved brand is the default (the checkbox can only move the default here). */
  isDefault: boolean;
  publicBaseUrl: string;
  notice?: string | undefined;
  error?: string | undefined;
}

function editorPage(state: EditorState, status?: number): PageResult {
  const { id, values } = state;
  return page(
    {
      title: id ? `Brand “${values.name || id}”` : 'New brand',
      view: 'brand-editor',
      styles: ['brands.css'],
      scripts: ['brand-editor.js'],
      notice: state.notice,
      error: state.error,
      id,
      brand: values,
      isDefault: state.isDefault,
      makeDefault: values.is_default === 'on',
      action: id ? `${BASE}/${id}` : BASE,
      logoSrc: shownImage(state.publicBaseUrl, values.logo_url),
      fonts: BRAND_FONTS.map((value) => ({ value, label: FONT_LABELS[value], selected: value === (values.font || 'system') })),
      colours: COLOURS.map(([name, label]) => ({ name, label, value: values[name] ?? '', picker: pickerValue(values[name]) })),
      socials: SOCIAL_NETWORKS.map((name) => ({ name, label: SOCIAL_LABELS[name], value: values[name] ?? '' })),
      // The saved brand's email; a new brand's appears once the Preview button (or the page's script) posts the form.
      previewSrc: id ? `${CONSOLE_PREFIX}/preview/brand/${id}` : undefined,
      previewAction: `${CONSOLE_PREFIX}/preview/brand/${id}`,
    },
    status,
  );
}

export const brandPageRoutes: AnyRoute[] = [
  definePage({
    method: 'get',
    role: { area: 'brands', level: 'view' },
    path: '/brands',
    query: pageQuery(),
    async handler({ query }, { services, account, koa }) {
      const { rows, count } = await listBrands(services, account.id, { page: query.page, perPage: LIST_ROWS, sortBy: 'name', sortOrder: 'asc' });
      const base = services.config.publicBaseUrl;
      return page({
        title: 'Brands',
        view: 'brands',
        styles: ['brands.css'],
        notice: noticeOf(koa),
        brands: rows.map((b) => ({
          ...b,
          logoSrc: shownImage(base, b.logo_url),
          initial: b.name.trim().charAt(0).toUpperCase() || '?',
          swatches: COLOURS.map(([name, label]) => ({ label, value: b[name] })).filter((s) => s.value !== null),
        })),
        ...paging(query.page, LIST_ROWS, count, (n) => `${BASE}?page=${n}`),
      });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'brands', level: 'manage' },
    path: '/brands/new',
    async handler(_input, { services }) {
      return editorPage({ id: 0, values: { font: 'system' }, isDefault: false, publicBaseUrl: services.config.publicBaseUrl });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'brands', level: 'view' },
    path: '/brands/:id',
    params: BrandIdParams,
    async handler({ params }, { services, account, koa }) {
      const brand = await findBrandView(services, account.id, params.id);
      return editorPage({ id: brand.id, values: valuesOf(brand), isDefault: brand.is_default, publicBaseUrl: services.config.publicBaseUrl, notice: noticeOf(koa) });
    },
  }),
  ...[BASE, `${BASE}/:id`].map((full) =>
    definePage({
      method: 'post',
      role: { area: 'brands', level: 'manage' },
      path: full.slice(CONSOLE_PREFIX.length),
      audit: 'brands.save',
      ...(full === BASE ? {} : { params: BrandIdParams }),
      // Multipart when the form carries a logo file; its CSRF token is one of its fields either way.
      readBody: readBrandBody,
      async handler({ params, raw }, { services, account }) {
        const id = (params as { id: number } | undefined)?.id ?? 0;
        // Another account's id is a 404 before anything in the form is looked at.
        const saved = id ? await findBrandView(services, account.id, id) : null;
        const { fields, logo } = await brandFormOf(raw);
        try {
          const input = brandInputOf(fields, services.config.publicBaseUrl);
          if (logo) input.logo_url = await storeLogo(services, account.id, logo);
          const brand = await saveBrand(services, account.id, { id: id || undefined, brand: input });
          return seeOther(`${BASE}/${brand.id}?done=saved`);
        } catch (err) {
          // A field the rules refuse: the form again as typed, with the reason (a logo already stored stays in the media).
          if (!(err instanceof ApiError) || err.status === 404 || err.status >= 500) throw err;
          return editorPage({ id, values: fields, isDefault: saved?.is_default ?? false, publicBaseUrl: services.config.publicBaseUrl, error: err.message }, err.status);
        }
      },
    }),
  ),
  definePage({
    method: 'get',
    role: { area: 'brands', level: 'manage' },
    path: '/brands/:id/delete',
    params: BrandIdParams,
    async handler({ params }, { services, account }) {
      const brand = await findBrandView(services, account.id, params.id);
      return page({ title: `Delete the brand “${brand.name}”`, view: 'brand-delete', styles: ['brands.css'], brand, confirm: false });
    },
  }),
  definePage({
    method: 'post',
    role: { area: 'brands', level: 'manage' },
    path: '/brands/:id/delete',
    audit: 'brands.delete',
    params: BrandIdParams,
    async handler({ params, form }, context) {
      const { services, account } = context;
      const brand = await findBrandView(services, account.id, params.id);
      const back = `${BASE}/${brand.id}/delete`;
      try {
        const result = await withInlineToken(context, form, { purpose: 'brand_delete', resourceId: brand.id, action: `Delete the brand “${brand.name}”`, back }, (token) =>
          deleteBrand(services, account.id, brand.id, token),
        );
        if ('done' in result) return seeOther(`${BASE}?done=deleted`);
        const impact = Array.isArray(result.confirm.impact) ? (result.confirm.impact as Array<{ ecards?: number }>) : [];
        const ecards = impact.reduce((sum, i) => sum + (i.ecards ?? 0), 0);
        return page({ title: `Delete the brand “${brand.name}”`, view: 'brand-delete', styles: ['brands.css'], brand, confirm: true, message: result.confirm.message, ecards });
      } catch (err) {
        // The default brand: the service's reason on the editor (make another brand the default first).
        if (!(err instanceof ApiError) || err.status !== 422) throw err;
        return editorPage({ id: brand.id, values: valuesOf(brand), isDefault: brand.is_default, publicBaseUrl: services.config.publicBaseUrl, error: err.message }, 422);
      }
    },
  }),
];
