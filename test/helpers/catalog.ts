// Widgets and eCards made straight in the database for tests of the endpoints that use them.
import { newVanityId } from '../../services/widgets.ts';
import type { Models } from '../../models/index.ts';

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
