// Widgets, eCards and sends made straight in the database for tests of the endpoints and workflows that use them.
import { randomId } from '../../lib/ids.ts';
import type { Ecard } from '../../models/Ecard.ts';
import type { Models } from '../../models/index.ts';
import { designOf, saveSnapshot } from '../../services/sends/accept/snapshot.ts';
import { newVanityId } from '../../services/widgets/admin/widgets.ts';

export async function insertWidget(models: Models, accountId: number, fields: { name?: string; is_campaign?: boolean; dir_sender_must_be_in_directory?: boolean } = {}) {
  return models.Widget.create({
    account_id: accountId,
    vanity_id: newVanityId(),
    name: fields.name ?? 'Widget',
    wconfig: { theme: 'light' },
    is_campaign: fields.is_campaign ?? false,
    dir_sender_must_be_in_directory: fields.dir_sender_must_be_in_directory ?? false,
  });
}

export async function insertEcard(models: Models, accountId: number, widgetId: number, fields: { name?: string; display_order?: number; self_hosted_url?: string | null } = {}) {
  return models.Ecard.create({
    account_id: accountId,
    widget_id: widgetId,
    vanity_id: newVanityId(),
    name: fields.name ?? 'Card',
    email_subject: 'Hello {{recipient_name}}',
    header: 'Happy day',
    details: '<p>Dear {{recipient_first_name}}</p>',
    ecard_link: null,
    url_redirect_after_send: null,
    ecardbrandid: null,
    ecard_mode: null,
    envelope_bg_image_url: null,
    envelope_audio_url: null,
    envelope_video_url: null,
    envelope_color_settings: null,
    self_hosted_url: fields.self_hosted_url ?? null,
    display_order: fields.display_order ?? 0,
    price: null,
  });
}

/** A committed email send of one recipient with its snapshot, as acceptance leaves it (for tests of what follows a crash). */
export async function insertSend(models: Models, ecard: Ecard, to: string, fields: { workflowStarted?: boolean } = {}) {
  const send = await models.Send.create({
    send_id: crypto.randomUUID(), account_id: ecard.account_id, ecard_id: ecard.id, widget_id: ecard.widget_id, mode: 'email', status: 'pending',
    sandbox: false, sender_name: 'Sam', sender_email: 'sam@example.com', personal_message: null, locale: 'en', merge_tags: null,
    override_props: null, send_at: new Date(), stat_vanity_id: randomId(24), quota_month: null, quota_count: 0, workflow_started: fields.workflowStarted ?? false,
  });
  await models.sequelize.transaction((transaction) => saveSnapshot({ models }, send.id, designOf(ecard), transaction));
  await models.SendRecipient.create({ send_id: send.id, position: 1, recipient_name: 'Rita', recipient_email: to });
  return send;
}
