// What a visitor of a public widget is shown: the display settings, the style columns, the page's strings in the
// widget's language, one page of its visible eCards in display order, and a fresh form token. The widget API and
// the hosted pages read the same thing, so the page's script and the server-rendered page never disagree.
import { notFound } from '../../../lib/errors.ts';
import { isPlainHttpUrl } from '../../../lib/urls.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Widget } from '../../../models/Widget.ts';
import type { ServiceContext } from '../../context.ts';
import { stringsFor } from '../../i18n/locale.ts';
import { count } from './counters.ts';
import { displayOf, type WidgetDisplay } from './display.ts';
import { findPublicWidget, isVisible, visibleEcardsWhere } from './public.ts';
import { thumbImageOf } from './thumbs.ts';
import { HONEYPOT_FIELD, issueFormToken } from './tokens.ts';

export const ECARD_NOT_FOUND = 'No such eCard in this widget';

/** The widget's style columns (the anchor's names), as the page applies them. */
export interface WidgetStyles {
  stylebg: string | null;
  stylebghead: string | null;
  stylebgbody: string | null;
  styletext: string | null;
  styleheadtext: string | null;
  stylelink: string | null;
  style_fontsize: number | null;
  style_fontsize_header: number | null;
  widgetcss: string | null;
}

export interface GalleryEcard {
  /** The eCard's id as the key API names it (the in-frame events' `ecardid`). */
  id: number;
  vanity_id: string;
  name: string;
  thumb_image: string | null;
  price: number | null;
  canSchedule: boolean;
  personalMessageBox: boolean;
  predefinedScheduleOn: boolean;
  predefinedScheduleForced: boolean;
  predefinedSchedule: string | null;
  url_redirect_after_send: string | null;
}

export interface Gallery {
  widget: {
    vanity_id: string;
    name: string;
    /** The sender must prove an address before sending (the verification flow). */
    requiresVerification: boolean;
    display: WidgetDisplay;
    styles: WidgetStyles;
    lang: string;
    dir: 'ltr' | 'rtl';
    texts: Record<string, string>;
  };
  ecards: GalleryEcard[];
  /** The card asked for with `ecard` (a form opened), else null. */
  chosen: GalleryEcard | null;
  form_token: string;
  honeypot_field: string;
  meta: { page: number; pageSize: number; total: number; totalPages: number };
}

export function stylesOf(widget: Widget): WidgetStyles {
  return {
    stylebg: widget.stylebg ?? null,
    stylebghead: widget.stylebghead ?? null,
    stylebgbody: widget.stylebgbody ?? null,
    styletext: widget.styletext ?? null,
    styleheadtext: widget.styleheadtext ?? null,
    stylelink: widget.stylelink ?? null,
    style_fontsize: widget.style_fontsize ?? null,
    style_fontsize_header: widget.style_fontsize_header ?? null,
    widgetcss: widget.widgetcss ?? null,
  };
}

/** The page's strings: every `widget…` key of the catalogue, in the widget's language. */
export function widgetTexts(locale: string): { lang: string; dir: 'ltr' | 'rtl'; texts: Record<string, string> } {
  const { lang, dir, all } = stringsFor(locale);
  return { lang, dir, texts: Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith('widget'))) };
}

export function galleryEcardOf(publicBaseUrl: string, ecard: Ecard): GalleryEcard {
  const price = ecard.price === null || ecard.price === undefined ? null : Number(ecard.price);
  return {
    id: ecard.id,
    vanity_id: ecard.vanity_id,
    name: ecard.name,
    thumb_image: thumbImageOf(publicBaseUrl, ecard),
    price: price !== null && Number.isFinite(price) && price > 0 ? price : null,
    canSchedule: ecard.can_schedule !== false,
    personalMessageBox: ecard.personal_message_box !== false,
    predefinedScheduleOn: Boolean(ecard.predefined_schedule_on),
    predefinedScheduleForced: Boolean(ecard.predefined_schedule_forced),
    predefinedSchedule: ecard.predefined_schedule ? ecard.predefined_schedule.toISOString() : null,
    // Only a web address: the page navigates to it.
    url_redirect_after_send: ecard.url_redirect_after_send && isPlainHttpUrl(ecard.url_redirect_after_send) ? ecard.url_redirect_after_send : null,
  };
}

export const requiresVerification = (widget: Widget) => Boolean(widget.email_verification_required || widget.dir_sender_must_be_in_directory);

/**
 * One page of the gallery (`page` from 1; past the last page answers the last one), or, with `ecard`, the same
 * with that card chosen (a visible card of this widget, else 404): a served gallery page counts a `view`, a chosen
 * card a `form_open` (`count: false` for the thank-you page, which is neither).
 */
export async function readGallery(ctx: ServiceContext, vanityId: string, options: { page?: number; ecard?: string | undefined; count?: boolean } = {}): Promise<Gallery> {
  const widget = await findPublicWidget(ctx, vanityId);
  const gallery = await galleryOf(ctx, widget, options);
  if (options.count !== false) await count(ctx, widget, gallery.chosen ? 'form_open' : 'view');
  return gallery;
}

/**
 * The gallery of a widget already found (public or not, its values maybe changed in memory and unsaved): what
 * `readGallery` shows strangers, and what the console's preview shows its owner. Counts nothing.
 */
export async function galleryOf(ctx: ServiceContext, widget: Widget, options: { page?: number; ecard?: string | undefined } = {}): Promise<Gallery> {
  const now = ctx.now();
  const display = displayOf(widget.wconfig ?? {});
  const pageSize = display.ecardsPerPage;
  const where = { account_id: widget.account_id, widget_id: widget.id, ...visibleEcardsWhere(now) };
  const total = await ctx.models.Ecard.count({ where });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(options.page ?? 1)), pages);
  const rows = await ctx.models.Ecard.findAll({ where, order: [['display_order', 'ASC'], ['id', 'ASC']], limit: pageSize, offset: (page - 1) * pageSize });
  let chosen: GalleryEcard | null = null;
  if (options.ecard !== undefined) {
    const ecard = await ctx.models.Ecard.findOne({ where: { account_id: widget.account_id, widget_id: widget.id, vanity_id: options.ecard } });
    if (!ecard || !isVisible(ecard, now)) throw notFound(ECARD_NOT_FOUND);
    chosen = galleryEcardOf(ctx.config.publicBaseUrl, ecard);
  }
  const { lang, dir, texts } = widgetTexts(display.locale);
  const gallery: Gallery = {
    widget: { vanity_id: widget.vanity_id, name: widget.name, requiresVerification: requiresVerification(widget), display, styles: stylesOf(widget), lang, dir, texts },
    ecards: rows.map((ecard) => galleryEcardOf(ctx.config.publicBaseUrl, ecard)),
    chosen,
    form_token: issueFormToken(ctx.dataKeys, widget.id, now),
    honeypot_field: HONEYPOT_FIELD,
    meta: { page, pageSize, total, totalPages: pages },
  };
  return gallery;
}
