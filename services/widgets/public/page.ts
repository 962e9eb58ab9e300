// The widget's hosted pages, rendered on the server from what the widget API answers (services/widgets/public/gallery.ts):
// the gallery (`/w/{vanity_id}`), the form for one card (`/w/{vanity_id}/e/{ecard}`) and the thank-you page
// (`/w/{vanity_id}/sent`). Each works without JavaScript (links and a form that posts); the inlined script, under
// the request's nonce, opens the form in place, sends JSON, and speaks to the embedding page through the bridge.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { packageRoot } from '../../../lib/paths.ts';
import { format } from '../../i18n/locale.ts';
import { PERSONAL_MESSAGE_MAX } from '../../sends/accept/personal-message.ts';
import type { Gallery, GalleryEcard } from './gallery.ts';
import { styleText, widgetLook } from './look.ts';
import { MIN_FILL_MS } from './send.ts';

const dir = join(packageRoot, 'templates', 'widget');
const hbs = Handlebars.create();
for (const name of ['form', 'sent', 'cards']) hbs.registerPartial(name, readFileSync(join(dir, `${name}.hbs`), 'utf8'));
const pageTemplate = hbs.compile(readFileSync(join(dir, 'page.hbs'), 'utf8'), { strict: false });
const css = readFileSync(join(dir, 'widget.css'), 'utf8');
const js = readFileSync(join(packageRoot, 'web', 'widget', 'widget.js'), 'utf8');

/** The share modes besides email, in the order the form shows them (network names are not translated). */
export const SHARE_MODES = ['ecard_copy_link', 'facebook', 'twitter', 'linkedin', 'whatsapp', 'sms', 'ecard_viewprint', 'ecard_download'] as const;
export type ShareMode = 'email' | (typeof SHARE_MODES)[number];
const NETWORKS: Record<string, { name: string; url: (u: string) => string }> = {
  facebook: { name: 'Facebook', url: (u) => `https://www.facebook.com/sharer/sharer.php?u=${u}` },
  twitter: { name: 'X', url: (u) => `https://x.com/intent/post?url=${u}` },
  linkedin: { name: 'LinkedIn', url: (u) => `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
  whatsapp: { name: 'WhatsApp', url: (u) => `https://wa.me/?text=${u}` },
  sms: { name: 'SMS', url: (u) => `sms:?&body=${u}` },
};

/** The network's share URL for a card's share link (the thank-you page's button), or null for the other modes. */
export function networkShare(mode: string, shareUrl: string): { name: string; href: string } | null {
  const network = NETWORKS[mode];
  return network ? { name: network.name, href: network.url(encodeURIComponent(shareUrl)) } : null;
}

const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function formatDate(iso: string, lang: string): string {
  try {
    return `${new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;
  } catch {
    return iso;
  }
}

function shareButtons(texts: Record<string, string>) {
  const label: Record<string, string> = {
    ecard_copy_link: texts.widgetCopyLink!,
    ecard_viewprint: texts.widgetViewPrint!,
    ecard_download: texts.widgetDownload!,
    sms: texts.widgetSms!,
  };
  return SHARE_MODES.map((mode) => ({ mode, label: label[mode] ?? NETWORKS[mode]!.name }));
}

/** The schedule choices the server can offer without JavaScript (UTC; the script recomputes them in local time). */
function schedule(ecard: GalleryEcard | null, gallery: Gallery, now: Date) {
  const { texts, display } = gallery.widget;
  const predefined = ecard?.predefinedScheduleOn && ecard.predefinedSchedule && new Date(ecard.predefinedSchedule).getTime() > now.getTime() ? ecard.predefinedSchedule : null;
  if (ecard && predefined && ecard.predefinedScheduleForced) return { forced: { iso: predefined, text: format(texts.widgetForced!, { date: formatDate(predefined, gallery.widget.lang) }) } };
  if (ecard && !ecard.canSchedule) return null;
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 9));
  const week = new Date(now.getTime() + 7 * 86_400_000);
  const max = new Date(now.getTime() + display.scheduleMaxDays * 86_400_000);
  return {
    forced: null,
    tomorrow: tomorrow <= max ? tomorrow.toISOString() : null,
    week: week <= max ? week.toISOString() : null,
    predefined: predefined ? { iso: predefined, text: format(texts.widgetSuggested!, { date: formatDate(predefined, gallery.widget.lang) }) } : null,
    // The template's form (the gallery's, filled by the script) offers the predefined choice empty and hidden.
    predefinedSlot: ecard === null,
  };
}

export interface PageInput {
  gallery: Gallery;
  nonce: string;
  now: Date;
}

function base(input: PageInput, title: string) {
  const { widget } = input.gallery;
  const look = widgetLook(widget.display, widget.styles);
  return {
    lang: widget.lang,
    dir: widget.dir,
    nonce: input.nonce,
    title,
    theme: look.theme,
    vars: look.vars,
    css,
    js,
    ownerCss: widget.styles.widgetcss ? styleText(widget.styles.widgetcss) : null,
    t: widget.texts,
    widgetName: widget.name,
    galleryHref: `/w/${encodeURIComponent(widget.vanity_id)}`,
    messageMax: PERSONAL_MESSAGE_MAX,
  };
}

function formView(input: PageInput, ecard: GalleryEcard | null, error: string | null) {
  const { gallery } = input;
  const { widget } = gallery;
  const t = widget.texts;
  const messageRequired = !widget.display.personalMessageOptional;
  return {
    action: `/w/${encodeURIComponent(widget.vanity_id)}/send`,
    ecard,
    formToken: gallery.form_token,
    honeypot: gallery.honeypot_field,
    error: error ? format(t[`widgetError_${error}`] ?? t.widgetError!, { max: new Intl.NumberFormat(widget.lang).format(PERSONAL_MESSAGE_MAX) }) : null,
    showMessage: ecard === null || ecard.personalMessageBox,
    messageRequired,
    schedule: schedule(ecard, gallery, input.now),
    readReceipt: widget.display.readReceiptEnabled,
    shares: widget.display.disableSocialWidgetTabs ? null : shareButtons(t),
    sendLabel: widget.display.shareButtonText || t.widgetSend,
    verify: widget.requiresVerification,
    maxRecipients: widget.display.maxRecipients,
    price: ecard?.price ? format(t.widgetPrice!, { price: ecard.price }) : null,
  };
}

function scriptData(input: PageInput, extra: Record<string, unknown>) {
  const { widget } = input.gallery;
  return jsonForScript({
    vanity_id: widget.vanity_id,
    texts: widget.texts,
    lang: widget.lang,
    maxRecipients: widget.display.maxRecipients,
    scheduleMaxDays: widget.display.scheduleMaxDays,
    requiresVerification: widget.requiresVerification,
    // For /embed/bridge.js: the hosts it may tell what happens here (frame-ancestors already keeps others out).
    allowedOrigins: widget.display.allowedOrigins,
    form_token: input.gallery.form_token,
    // The script holds a send until its token is this old (the "too fast" rule), so a quick person's send goes.
    minFillMs: MIN_FILL_MS,
    ...extra,
  });
}

/** `/w/{vanity_id}`: the gallery, one page of cards, and the form's template the script opens in place. */
export function renderGalleryPage(input: PageInput): string {
  const { gallery } = input;
  const { widget, meta } = gallery;
  const t = widget.texts;
  const href = (page: number) => `/w/${encodeURIComponent(widget.vanity_id)}${page > 1 ? `?page=${page}` : ''}`;
  return pageTemplate({
    ...base(input, widget.name),
    gallery: {
      layout: widget.display.layout,
      cards: gallery.ecards.map((ecard) => ({
        ...ecard,
        href: `/w/${encodeURIComponent(widget.vanity_id)}/e/${encodeURIComponent(ecard.vanity_id)}`,
        label: format(t.widgetSendThis!, { card: ecard.name }),
        price: ecard.price ? format(t.widgetPrice!, { price: ecard.price }) : null,
      })),
      paging:
        meta.totalPages > 1
          ? {
              prev: meta.page > 1 ? href(meta.page - 1) : null,
              next: meta.page < meta.totalPages ? href(meta.page + 1) : null,
              text: format(t.widgetPageOf!, { page: meta.page, pages: meta.totalPages }),
            }
          : null,
    },
    formTemplate: formView(input, null, null),
    data: scriptData(input, { ecards: gallery.ecards, page: 'gallery' }),
  });
}

/** `/w/{vanity_id}/e/{ecard}`: the form for one card (with `?error=<code>` as a sentence). */
export function renderFormPage(input: PageInput, error: string | null): string {
  const ecard = input.gallery.chosen!;
  return pageTemplate({
    ...base(input, ecard.name),
    form: formView(input, ecard, error),
    data: scriptData(input, { ecards: [ecard], chosen: ecard, page: 'form' }),
  });
}

/** `/w/{vanity_id}/sent`: thanks, "Send another", and for a share mode the card's link and the network's share. */
export function renderSentPage(input: PageInput, sent: { mode: string; shareUrl: string | null }): string {
  const t = input.gallery.widget.texts;
  const share = sent.shareUrl && sent.mode !== 'email' ? sent.shareUrl : null;
  const network = share ? networkShare(sent.mode, share) : null;
  return pageTemplate({
    ...base(input, share ? t.widgetShareTitle! : t.widgetSentTitle!),
    sent: {
      title: share ? t.widgetShareTitle : t.widgetSentTitle,
      ecard: input.gallery.chosen,
      share: share ? { url: share, open: sent.mode === 'ecard_download' ? t.widgetDownload : sent.mode === 'ecard_viewprint' ? t.widgetViewPrint : t.widgetOpenCard } : null,
      network: network ? { href: network.href, label: format(t.widgetShareOn!, { network: network.name }) } : null,
    },
    data: scriptData(input, { ecards: [], page: 'sent' }),
  });
}
