// The bulk sender's first step, shared by campaigns and automations: in the caller's transaction, one send per
// recipient (its origin, its snapshot, the card rendered for it, a deterministic Message-ID) and the ecard_shared
// events of up to 100 elements each, written before any email (`sent: false`), as the spec says.
import { literal, type Transaction } from 'sequelize';
import { ApiError } from '../../lib/errors.ts';
import { randomId } from '../../lib/ids.ts';
import type { Ecard } from '../../models/Ecard.ts';
import type { SendOrigin } from '../../models/Send.ts';
import type { SendRecipient } from '../../models/SendRecipient.ts';
import type { ServiceContext } from '../context.ts';
import { recordEvent } from '../outbox.ts';
import { subscribedTypes } from '../sends/delivery/outcome-events.ts';
import { messageIdOf } from '../sends/delivery/delivery.ts';
import { pageUrl } from '../sends/card-page/pages.ts';
import { newBounceToken } from '../sends/delivery/return-path.ts';
import { renderCard } from '../sends/card-page/render.ts';
import { sharedEvent } from '../sends/delivery/shared-event.ts';
import { resolveBrand } from '../brands/brands.ts';
import { brandDesignOf, designOf, saveSnapshots, type BrandDesign, type EcardDesign } from '../sends/accept/snapshot.ts';
import { widgetDesignsOf } from '../sends/accept/widget-design.ts';
import { sanitizeHtmlField, type TemplateValues } from '../ecards/templates.ts';

export const EVENT_ELEMENTS = 100;

export interface BulkSender {
  name: string;
  email: string;
  personalMessage: string | null;
  locale: string;
  sandbox: boolean;
}

export interface BulkRecipient {
  /** The caller's row id (a campaign recipient, an automation firing). */
  key: number;
  email: string;
  name: string;
  /** Strings, or a list of string rows (an automation digest's `celebrants`). */
  mergeTags: TemplateValues;
  ecard: Ecard;
  /** This recipient's own message (an automation's picked message), instead of the sender's. */
  personalMessage?: string | null;
}

// A template refused at render (invalid_template, template_too_large) is that recipient's failure, not the batch's.
function renderedCard(render: () => ReturnType<typeof renderCard>): ReturnType<typeof renderCard> | { error: string } {
  try {
    return render();
  } catch (err) {
    if (err instanceof ApiError) return { error: `${err.code}: ${err.message}`.slice(0, 1000) };
    throw err;
  }
}

/** Makes the sends; returns the send row id of each recipient key. */
export async function prepareBulkSends(
  ctx: ServiceContext,
  accountId: number,
  origin: { kind: Exclude<SendOrigin, 'single'>; id: number },
  sender: BulkSender,
  recipients: BulkRecipient[],
  transaction: Transaction,
): Promise<Map<number, number>> {
  const { models } = ctx;
  if (recipients.length === 0) return new Map();
  const now = ctx.now();
  const personalMessage = sender.personalMessage ? sanitizeHtmlField(sender.personalMessage) : null;
  const rows = recipients.map((r) => ({
    send_id: crypto.randomUUID(),
    account_id: accountId,
    ecard_id: r.ecard.id,
    widget_id: r.ecard.widget_id,
    mode: 'email' as const,
    status: 'pending' as const,
    sandbox: sender.sandbox,
    sender_name: sender.name,
    sender_email: sender.email,
    personal_message: r.personalMessage === undefined ? personalMessage : r.personalMessage ? sanitizeHtmlField(r.personalMessage) : null,
    locale: sender.locale,
    merge_tags: JSON.stringify(r.mergeTags),
    override_props: null,
    send_at: now,
    stat_vanity_id: randomId(24),
    quota_month: null,
    quota_count: 0,
    error: null,
    // No workflow per send: the bulk batch delivers it (the sends sweeper starts single sends only).
    workflow_started: true,
    origin: origin.kind,
    origin_id: origin.id,
  }));
  await models.Send.bulkCreate(rows, { transaction });
  const sends = await models.Send.findAll({ where: { send_id: rows.map((r) => r.send_id) }, transaction });
  const byUuid = new Map(sends.map((s) => [s.send_id, s]));
  const ordered = rows.map((r) => byUuid.get(r.send_id)!);

  const failedSends = new Map<number, string>();
  const designs = new Map<number, EcardDesign>();
  // Each eCard's brand as it is now (its own or the default), read once per eCard, its gaps filled by the eCard's
  // widget (all widgets read at once), whose merge-tag fallbacks go with the design too.
  const ecards = [...new Set(recipients.map((r) => r.ecard))];
  const widgets = await widgetDesignsOf(ctx, ecards, transaction);
  const brands = new Map<number, BrandDesign | null>();
  for (const ecard of ecards) {
    if (!brands.has(ecard.id)) brands.set(ecard.id, brandDesignOf(await resolveBrand(ctx, accountId, ecard.ecardbrandid, transaction), undefined, widgets.get(ecard.id)));
  }
  const designFor = (ecard: Ecard) =>
    designs.get(ecard.id) ?? designs.set(ecard.id, designOf(ecard, brands.get(ecard.id), widgets.get(ecard.id) ?? null)).get(ecard.id)!;
  await saveSnapshots(ctx, ordered.map((send, i) => ({ sendPk: send.id, design: designFor(recipients[i]!.ecard) })), transaction);
  await models.SendRecipient.bulkCreate(
    ordered.map((send, i) => {
      const r = recipients[i]!;
      const recipient = { recipient_name: r.name, recipient_email: r.email } as SendRecipient;
      const row = { send_id: send.id, position: 1, recipient_name: r.name.slice(0, 200), recipient_email: r.email, page_id: send.stat_vanity_id, message_id: messageIdOf(send, { position: 1 }), bounce_token: newBounceToken(ctx.config.bounces) };
      const card = renderedCard(() => renderCard(send, designFor(r.ecard), recipient, pageUrl(ctx.config.publicBaseUrl, send.stat_vanity_id)));
      // A card over the template bounds (a long list merge tag): this recipient fails with that reason, the rest go.
      if ('error' in card) {
        failedSends.set(send.id, card.error);
        return { ...row, status: 'failed' as const, error: card.error, finished_at: now };
      }
      return { ...row, rendered_subject: card.subject.slice(0, 1000), rendered_header: card.header.slice(0, 1000), rendered_html: card.html };
    }),
    { transaction },
  );
  for (const [sendPk, error] of failedSends) await models.Send.update({ status: 'failed', error }, { where: { id: sendPk }, transaction });
  // Their ecard_failed is marked with the failure (announced with the batch's other outcomes: outcome-marks.ts).
  if (failedSends.size && (await subscribedTypes(ctx, accountId, ['ecard_failed'], transaction)).size) {
    await models.SendRecipient.update({ announce_event: 'ecard_failed' }, { where: { send_id: [...failedSends.keys()], status: 'failed' }, transaction });
  }
  for (let i = 0; i < ordered.length; i += EVENT_ELEMENTS) {
    const part = ordered.slice(i, i + EVENT_ELEMENTS);
    await recordEvent(
      ctx,
      {
        accountId,
        eventId: crypto.randomUUID(),
        eventType: 'ecard_shared',
        source: 'api',
        memberId: null,
        occurredAt: now,
        body: part.map((send, j) => sharedEvent(send, recipients[i + j]!.ecard, [{ name: recipients[i + j]!.name, email: recipients[i + j]!.email, pageId: send.stat_vanity_id }])[0]!),
      },
      transaction,
    );
  }
  return new Map(recipients.map((r, i) => [r.key, ordered[i]!.id]));
}

/**
 * The caller's rows' link to their sends, for one UPDATE of every row a batch prepared (`WHERE id IN (keys)`):
 * `send_id` and `ecard_id` by row id. Numbers only go into the CASE statements.
 */
export function sendLinks(recipients: readonly BulkRecipient[], sendPks: ReadonlyMap<number, number>): { send_id: ReturnType<typeof literal>; ecard_id: ReturnType<typeof literal> } {
  const cases = (pick: (r: BulkRecipient) => number) => recipients.map((r) => `WHEN ${Number(r.key)} THEN ${Number(pick(r))}`).join(' ');
  return { send_id: literal(`CASE id ${cases((r) => sendPks.get(r.key)!)} END`), ecard_id: literal(`CASE id ${cases((r) => r.ecard.id)} END`) };
}
