// A send's snapshot: the eCard's design as it was when the send was accepted (texts, artwork, envelope). Render,
// dispatch and the share page read only this, so a sent or scheduled card is unaffected by later edits and
// deletes of its design ("Sent cards keep working"). Campaigns and automations will take theirs the same way.
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { Ecard } from '../../models/Ecard.ts';
import type { Models } from '../../models/index.ts';

const text = z.string().nullable();

export const EcardDesign = z.object({
  ecard_id: z.number().int(),
  widget_id: z.number().int(),
  name: z.string(),
  emailSubject: text,
  header: text,
  details: text,
  self_hosted_url: text,
  ecardLink: text,
  url_redirect_after_send: text,
  envelope_bg_image_url: text,
  envelope_audio_url: text,
  envelope_video_url: text,
  envelope_color_settings: text,
  envelope_auto_open: z.boolean(),
  envelope_confetti: z.boolean(),
  // Added after the first snapshots were taken: older ones render as the default mode (`popup_card`).
  ecard_mode: text.optional(),
});
export type EcardDesign = z.infer<typeof EcardDesign>;

export function designOf(ecard: Ecard): EcardDesign {
  return {
    ecard_id: ecard.id,
    widget_id: ecard.widget_id,
    name: ecard.name,
    emailSubject: ecard.email_subject,
    header: ecard.header,
    details: ecard.details,
    self_hosted_url: ecard.self_hosted_url,
    ecardLink: ecard.ecard_link,
    url_redirect_after_send: ecard.url_redirect_after_send,
    envelope_bg_image_url: ecard.envelope_bg_image_url,
    envelope_audio_url: ecard.envelope_audio_url,
    envelope_video_url: ecard.envelope_video_url,
    envelope_color_settings: ecard.envelope_color_settings,
    envelope_auto_open: ecard.envelope_auto_open,
    envelope_confetti: ecard.envelope_confetti,
    ecard_mode: ecard.ecard_mode,
  };
}

/** Kept in the send's own transaction, so there is no accepted send without its snapshot. */
export async function saveSnapshot(models: Models, sendPk: number, design: EcardDesign, transaction: Transaction): Promise<void> {
  await models.SendSnapshot.create({ send_id: sendPk, design: JSON.stringify(design) }, { transaction });
}

/** The send's snapshot; null only for a send accepted before snapshots existed whose eCard was already gone. */
export async function loadSnapshot(models: Models, sendPk: number): Promise<EcardDesign | null> {
  const row = await models.SendSnapshot.findByPk(sendPk);
  return row ? EcardDesign.parse(JSON.parse(row.design)) : null;
}
