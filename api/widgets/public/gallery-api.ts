// The gallery's JSON, `GET /v2/widget/{vanity_id}` (issue 31 item 2): what the widget's page shows and a fresh form
// token; `?ecard=` is the page's call when a visitor chooses a card (a form open). HTTP only: services/widgets/public/gallery.ts.
import { z } from 'zod';
import { fromDigits, queryInt } from '../../schema-helpers.ts';
import { readGallery } from '../../../services/widgets/public/gallery.ts';
import { defineWidgetRoute, type AnyRoute } from '../../http/route.ts';

const tags = ['Widget'];
const colour = z.string().nullable();

const WidgetParams = z.object({ vanity_id: z.string().describe('the widget’s vanity id (case-sensitive)') });
const GalleryQuery = z.object({
  page: z.preprocess(fromDigits, queryInt().min(1)).optional().describe('1-based; past the last page answers the last page'),
  ecard: z.string().max(64).optional().describe('an eCard’s vanity id: answers the same with that card chosen (counts a form open)'),
});

export const GalleryEcard = z.object({
  id: z.number().int().describe('the eCard’s id in the key API (the events’ `ecardid`)'),
  vanity_id: z.string(),
  name: z.string(),
  thumb_image: z.string().nullable().describe('a 480 px WebP thumbnail, or the artwork’s URL as it is'),
  price: z.number().nullable().describe('null when free'),
  canSchedule: z.boolean(),
  personalMessageBox: z.boolean(),
  predefinedScheduleOn: z.boolean(),
  predefinedScheduleForced: z.boolean(),
  predefinedSchedule: z.string().nullable().describe('ISO 8601 UTC'),
  url_redirect_after_send: z.string().nullable().describe('where the page goes after a send (the host page when framed)'),
});

const Display = z.object({
  layout: z.enum(['grid', 'masonry', 'inline']),
  thumbColumns: z.number().int(),
  thumbHeight: z.number().int(),
  ecardsPerPage: z.number().int(),
  theme: z.enum(['light', 'dark']),
  widgetThemeColor: colour,
  locale: z.string(),
  maxRecipients: z.number().int(),
  scheduleMaxDays: z.number().int(),
  readReceiptEnabled: z.boolean(),
  personalMessageOptional: z.boolean(),
  disableSocialWidgetTabs: z.boolean(),
  shareButtonText: z.string().nullable(),
  allowedOrigins: z.array(z.string()),
  limitEmailsPerSession: z.number().int(),
  dailySendCap: z.number().int(),
});

const Styles = z.object({
  stylebg: colour,
  stylebghead: colour,
  stylebgbody: colour,
  styletext: colour,
  styleheadtext: colour,
  stylelink: colour,
  style_fontsize: z.number().int().nullable(),
  style_fontsize_header: z.number().int().nullable(),
  widgetcss: z.string().nullable().describe('the owner’s CSS, sanitized when saved'),
});

const GalleryData = z.object({
  widget: z.object({
    vanity_id: z.string(),
    name: z.string(),
    requiresVerification: z.boolean().describe('the sender proves an address first (verify/start, verify/confirm)'),
    display: Display.describe('wconfig’s display keys, defaults filled in'),
    styles: Styles,
    lang: z.string(),
    dir: z.enum(['ltr', 'rtl']),
    texts: z.record(z.string(), z.string()).describe('the page’s strings in the widget’s language'),
  }),
  ecards: z.array(GalleryEcard).describe('the visible eCards of this page, in display order'),
  chosen: GalleryEcard.nullable().describe('the card named by `ecard`, else null'),
  form_token: z.string().describe('signed; good for two hours; its nonce is the send’s idempotency key'),
  honeypot_field: z.string().describe('a field the form keeps empty and hidden from people'),
});

const GalleryMeta = z.object({ page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), totalPages: z.number().int() });

export const galleryApiRoutes: AnyRoute[] = [
  defineWidgetRoute({
    method: 'get',
    path: '/:vanity_id',
    summary: 'A public widget’s gallery: display settings, styles, strings, one page of eCards and a fresh form token',
    tags,
    params: WidgetParams,
    query: GalleryQuery,
    response: GalleryData,
    meta: GalleryMeta,
    async handler({ params, query }, { services }) {
      const { meta, ...data } = await readGallery(services, params.vanity_id, { page: query.page, ecard: query.ecard });
      return { data, meta };
    },
  }),
];
