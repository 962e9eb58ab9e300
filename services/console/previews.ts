// Previews of a design as a recipient would get it (the card page and the email), from a saved eCard or from the
// editor's unsaved fields, through the same snapshot and renderers as a real send. The send and its recipient are
// built in memory with sample merge values and never saved: a preview writes nothing, counts nothing.
import type { Ecard } from '../../models/Ecard.ts';
import type { Send } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import type { Widget } from '../../models/Widget.ts';
import { assertBrandOf, resolveBrand } from '../brands/brands.ts';
import type { ServiceContext } from '../context.ts';
import { ecardColumns, findEcard, renderEcard, type EcardInput } from '../ecards/records.ts';
import { stringsFor } from '../i18n/locale.ts';
import { renderEmail } from '../sends/email/email.ts';
import { renderPage, type RenderedPage } from '../sends/card-page/page.ts';
import { brandDesignOf, designOf, widgetDesignOf, type BrandOverride, type EcardDesign } from '../sends/accept/snapshot.ts';
import type { BrandView } from '../brands/view.ts';
import { findWidget } from '../widgets/admin/widgets.ts';

/** The card page preview of a saved eCard in the owner's console (where a preview's button leads); a new eCard has none. */
export const previewPageUrl = (publicBaseUrl: string, ecardId: number) => (ecardId ? `${publicBaseUrl}/v2/console/preview/ecard/${ecardId}?state=sealed` : '#');

/** The sample people and message of every preview (the sender is the owner where the caller knows them). */
export const SAMPLE = {
  recipientName: 'Alex Rivera',
  recipientEmail: 'alex.rivera@example.com',
  senderName: 'Sam Lee',
  senderEmail: 'sam.lee@example.com',
  personalMessage: 'Thinking of you. Have a wonderful day!',
};

export interface PreviewSender {
  name: string;
  email: string;
}

export interface PreviewInput {
  /** A saved eCard's id, or 0 for a new one (then `widgetId` names its widget). */
  ecardId: number;
  /** The editor's unsaved fields (the key API's EcardInput, parsed), over the saved eCard's; absent: the saved design. */
  fields?: EcardInput | undefined;
  /** The widget of a new eCard, or the one an unsaved form moves the eCard to. */
  widgetId?: number | undefined;
  sender?: PreviewSender | undefined;
  /** Where the email's button and `{{ecard_link}}` lead. */
  link: string;
  /** The card page's script and style nonce (its CSP). */
  nonce: string;
  /** The card page sealed (the envelope) or open (the card). */
  state: 'sealed' | 'open';
}

export interface Preview {
  page: RenderedPage;
  email: { subject: string; html: string; text: string };
}

// The eCard as the form would save it, never saved: the stored row's values (or the model's defaults) under the
// form's columns (checked and sanitized as a save checks them).
async function ecardOf(ctx: ServiceContext, accountId: number, input: PreviewInput): Promise<{ ecard: Ecard; widget: Widget }> {
  const { models } = ctx;
  const saved = input.ecardId ? await findEcard(ctx, accountId, input.ecardId) : null;
  const widgetId = input.widgetId ?? saved?.widget_id;
  // A new eCard without a widget names nothing to preview in: the same 404 as a foreign widget.
  const widget = await findWidget(ctx, accountId, widgetId ?? 0);
  if (!input.fields) return { ecard: saved!, widget };
  if (typeof input.fields.ecardbrandid === 'number') await assertBrandOf(ctx, accountId, input.fields.ecardbrandid);
  const columns = ecardColumns(input.fields);
  const base = saved ? saved.get({ plain: true }) : {};
  const ecard = models.Ecard.build({ ...base, ...columns, id: input.ecardId, account_id: accountId, widget_id: widget.id, vanity_id: saved?.vanity_id ?? '', name: (columns.name as string | undefined) ?? saved?.name ?? '' });
  return { ecard, widget };
}

/** The design an eCard is sent with now: its brand (or the default), filled by its widget, as a send's snapshot takes it. */
export async function previewEcardDesign(ctx: ServiceContext, accountId: number, input: Pick<PreviewInput, 'ecardId' | 'fields' | 'widgetId'>): Promise<EcardDesign> {
  const { ecard, widget } = await ecardOf(ctx, accountId, input as PreviewInput);
  const widgetDesign = widgetDesignOf(widget);
  return designOf(ecard, brandDesignOf(await resolveBrand(ctx, accountId, ecard.ecardbrandid ?? null), undefined, widgetDesign), widgetDesign);
}

/** A sample card in this design: a send and a recipient that exist only in memory, the card rendered with trial values. */
export function sampleSend(design: EcardDesign, sender: PreviewSender, link: string): { send: Send; recipient: SendRecipient } {
  const send = {
    locale: 'en',
    sender_name: sender.name,
    sender_email: sender.email,
    personal_message: SAMPLE.personalMessage,
    merge_tags: null,
    override_props: null,
  } as Send;
  const card = renderEcard(design, {
    mergeTags: {
      recipient_name: SAMPLE.recipientName,
      recipient_email: SAMPLE.recipientEmail,
      sender_name: sender.name,
      sender_email: sender.email,
      personal_message: SAMPLE.personalMessage,
      ecard_link: link,
    },
    overrideProps: {},
    trialMode: true,
    fallbacks: design.merge_tag_defaults,
  });
  // An empty subject template still says it is a preview (the email's fallback subject is the intro line).
  const subject = card.subject.trim() === '[Preview]' ? `[Preview] ${stringsFor(send.locale).t('intro', { sender: sender.name })}` : card.subject;
  const recipient = {
    recipient_name: SAMPLE.recipientName,
    recipient_email: SAMPLE.recipientEmail,
    rendered_subject: subject,
    rendered_header: card.header,
    rendered_html: card.html,
    opened_at: null,
  } as SendRecipient;
  return { send, recipient };
}

/** The card page and the email of a design: `page` framed by the console, `email` its HTML and text. */
export async function renderPreview(design: EcardDesign, sender: PreviewSender, link: string, nonce: string, state: 'sealed' | 'open'): Promise<Preview> {
  const { send, recipient } = sampleSend(design, sender, link);
  // No open action and no thank-you: nothing in a preview posts anywhere.
  const page = renderPage(send, design, recipient, nonce, { openAction: null, opened: state === 'open', url: link, shared: false, thanksSent: false, sendBackUrl: null, preview: state });
  const email = await renderEmail(send, design, recipient, link);
  return { page, email };
}

/** The preview of a saved eCard (`fields` absent) or of the editor's unsaved form over it (id 0: a new eCard in `widgetId`). */
export async function previewDesign(ctx: ServiceContext, accountId: number, input: PreviewInput): Promise<Preview> {
  const design = await previewEcardDesign(ctx, accountId, input);
  return renderPreview(design, input.sender ?? { name: SAMPLE.senderName, email: SAMPLE.senderEmail }, input.link, input.nonce, input.state);
}

// The card a brand is previewed with: plain texts with merge tags, no artwork, so the brand's look is what shows.
const SAMPLE_CARD: EcardDesign = {
  ecard_id: 0,
  widget_id: 0,
  name: 'Sample card',
  emailSubject: 'A card for {{recipient_first_name}}',
  header: 'Happy holidays, {{recipient_first_name}}!',
  details: '<p>Thank you for a wonderful year. We wish you and yours a bright and peaceful season.</p>',
  self_hosted_url: null,
  ecardLink: null,
  url_redirect_after_send: null,
  envelope_bg_image_url: null,
  envelope_audio_url: null,
  envelope_video_url: null,
  envelope_color_settings: null,
  envelope_auto_open: false,
  envelope_confetti: false,
};

/** The email of a sample card in a brand: the saved one (or none, a new brand) with the unsaved form's fields over it. */
export async function previewBrand(saved: BrandView | null, override: BrandOverride | undefined, sender: PreviewSender): Promise<Preview['email']> {
  const brand = brandDesignOf(saved, override);
  const design: EcardDesign = { ...SAMPLE_CARD, ...(brand ? { brand } : {}) };
  const { send, recipient } = sampleSend(design, sender, '#');
  return renderEmail(send, design, recipient, '#');
}
