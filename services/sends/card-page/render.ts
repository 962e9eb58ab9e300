// The eCard as a recipient gets it, from the send's snapshot of the design (never the eCard row): the card rendered
// with its merge tags, which the email (email.ts) and the card page (page.ts) put around it.
import sanitizeHtml from 'sanitize-html';
import { isPlainHttpUrl } from '../../../lib/urls.ts';
import type { Send } from '../../../models/Send.ts';
import type { SendRecipient } from '../../../models/SendRecipient.ts';
import { OVERRIDABLE, renderEcard } from '../../ecards/records.ts';
import type { TemplateValues } from '../../ecards/templates.ts';
import type { EcardDesign } from '../accept/snapshot.ts';

// The send's overrideProps limited to what may be overridden (texts and envelope).
export function overridesOf(send: Pick<Send, 'override_props'>): Partial<Record<(typeof OVERRIDABLE)[number], unknown>> {
  const overrides = send.override_props ? (JSON.parse(send.override_props) as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(overrides).filter(([k]) => (OVERRIDABLE as readonly string[]).includes(k)));
}

/** The card for one recipient: subject, header and body HTML with the merge tags filled, empty ones by the widget's fallbacks (kept with the send). */
export function renderCard(send: Send, design: EcardDesign, recipient: Pick<SendRecipient, 'recipient_name' | 'recipient_email'>, link: string) {
  const mergeTags = send.merge_tags ? (JSON.parse(send.merge_tags) as TemplateValues) : {};
  return renderEcard(design, {
    mergeTags: {
      ...mergeTags,
      recipient_name: recipient.recipient_name,
      recipient_email: recipient.recipient_email ?? '',
      sender_name: send.sender_name,
      sender_email: send.sender_email,
      personal_message: sanitizeHtml(send.personal_message ?? '', { allowedTags: [], allowedAttributes: {} }),
      ecard_link: link,
    },
    overrideProps: overridesOf(send),
    trialMode: false,
    // The widget's fallbacks, as the snapshot kept them (older snapshots have none).
    fallbacks: design.merge_tag_defaults,
  });
}

// A stored URL from before URLs were checked for whitespace and control characters is left out.
const plainUrlOrNull = <T>(url: T): T => (typeof url === 'string' && !isPlainHttpUrl(url) ? (null as T) : url);

// An override is used only when it has the field's kind: URLs must be http(s) (they land in the page's markup).
export const envelopeOverride = <T>(value: unknown, type: 'url' | 'string' | 'boolean', fallback: T): T => {
  if (type === 'url') return typeof value === 'string' && isPlainHttpUrl(value) ? (value as T) : plainUrlOrNull(fallback);
  return typeof value === type ? (value as T) : fallback;
};
