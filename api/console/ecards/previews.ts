// The console's previews (framed by its pages): an eCard's card page (sealed or open) and email, and a brand's email,
// of the saved design (GET) or of the editor's unsaved form (POST, the same fields as the save). HTTP only: the
// design and the sample card come from services/console/previews.ts, rendered as a send renders them.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { findBrandView } from '../../../services/brands/brands.ts';
import { ownMediaFile } from '../../../services/media.ts';
import { previewBrand, previewDesign, previewPageUrl, SAMPLE, type PreviewSender } from '../../../services/console/previews.ts';
import { BrandOverride } from '../../brands/schema.ts';
import { definePage, framed, type AnyRoute, type PageResult } from '../../http/route.ts';
import { parseInput } from '../../http/validation.ts';
import { numericId, resource } from '../../schema-helpers.ts';
import { parseEcardForm } from './form.ts';

const EcardIdParams = z.object({ id: resource('ecard', numericId(0)) });
const BrandIdParams = z.object({ id: resource('brand', numericId(0)) });
const StateQuery = z.object({ state: z.enum(['sealed', 'open']).default('open') });

/**
 * The email's policy: its inline styles and images from anywhere; nothing runs, nothing is fetched or posted.
 * The kit adds `frame-ancestors 'self'`.
 */
export const EMAIL_CSP = "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * The card page's own policy (api/public/share-page.ts), except that a preview posts nothing: no open action, no
 * thank-you (`connect-src` and `form-action` are 'none').
 */
function pageCsp(nonce: string, frameHosts: string[]): string {
  const frames = frameHosts.length > 0 ? ` frame-src ${frameHosts.join(' ')};` : '';
  return `default-src 'none'; img-src https: http:; media-src https: http:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; connect-src 'none'; form-action 'none';${frames} base-uri 'none'`;
}

// The owner sends the sample card (their address; the sample name, as owners have no name of their own).
const senderOf = (ownerEmail: string): PreviewSender => ({ name: SAMPLE.senderName, email: ownerEmail });

/** The brand form's fields (the brands page's, the key API's brand save fields with the social links flat). */
const BRAND_TEXTS = ['name', 'logo_url', 'website', 'address', 'primary_color', 'accent_color', 'background_color', 'text_color', 'footer_text'] as const;
const SOCIAL = ['twitter', 'facebook', 'instagram', 'linkedin', 'youtube'] as const;

/**
 * The brand form (`name, logo_url, website, address, primary_color, accent_color, background_color, text_color, font,
 * footer_text, twitter, facebook, instagram, linkedin, youtube`) as a brand override, checked as a brand save
 * checks it: blank fields are null (a blank name or font keeps the saved one).
 */
export function brandOfForm(form: Record<string, string>, publicBaseUrl: string) {
  const input: Record<string, unknown> = {};
  for (const field of BRAND_TEXTS) {
    const value = form[field]?.trim() ?? '';
    if (field === 'name') {
      if (value) input.name = value;
    } else input[field] = value === '' ? null : value;
  }
  if (form.font) input.font = form.font;
  input.social = Object.fromEntries(SOCIAL.map((n) => [n, form[n]?.trim() ? form[n].trim() : null]));
  // A logo uploaded here is our own media, on http:// where the service runs on it: kept as a brand save keeps it.
  const logo = typeof input.logo_url === 'string' && ownMediaFile(publicBaseUrl, input.logo_url) ? input.logo_url : undefined;
  const parsed = parseInput(BrandOverride, logo ? { ...input, logo_url: undefined } : input, 'body');
  return logo ? { ...parsed, logo_url: logo } : parsed;
}

const ecardPreview = (method: 'get' | 'post', kind: 'ecard' | 'email'): AnyRoute =>
  definePage({
    method,
    role: { area: 'ecards', level: method === 'get' ? 'view' : 'manage' },
    path: `/preview/${kind}/:id`,
    audit: { none: 'a preview renders; nothing changes' },
    params: EcardIdParams,
    query: StateQuery,
    async handler({ params, query, form }, { services, account, page }): Promise<PageResult> {
      const fields = method === 'post' ? parseEcardForm(form) : undefined;
      const nonce = randomBytes(16).toString('base64');
      const preview = await previewDesign(services, account.id, {
        ecardId: params.id,
        fields,
        widgetId: fields?.widgetid,
        sender: senderOf(page.me.owner_email),
        link: previewPageUrl(services.config.publicBaseUrl, params.id),
        nonce,
        state: query.state,
      });
      return kind === 'email' ? framed(preview.email.html, EMAIL_CSP) : framed(preview.page.html, pageCsp(nonce, preview.page.frameHosts));
    },
  });

const brandPreview = (method: 'get' | 'post'): AnyRoute =>
  definePage({
    method,
    role: { area: 'brands', level: method === 'get' ? 'view' : 'manage' },
    path: '/preview/brand/:id',
    audit: { none: 'a preview renders; nothing changes' },
    params: BrandIdParams,
    async handler({ params, form }, { services, account, page }): Promise<PageResult> {
      // A saved brand must be the account's (404), with or without the form over it.
      const saved = params.id ? await findBrandView(services, account.id, params.id) : null;
      const override = method === 'post' ? brandOfForm(form, services.config.publicBaseUrl) : undefined;
      const email = await previewBrand(saved, override, senderOf(page.me.owner_email));
      return framed(email.html, EMAIL_CSP);
    },
  });

export const previewPageRoutes: AnyRoute[] = [
  ecardPreview('get', 'ecard'),
  ecardPreview('post', 'ecard'),
  ecardPreview('get', 'email'),
  ecardPreview('post', 'email'),
  brandPreview('get'),
  brandPreview('post'),
];
