// How a widget is shown: the spec's field names, `wconfig` parsed, prices as a map.
import type { z } from 'zod';
import type { WidgetView } from '../../services/widgets/admin/widgets.ts';
import type { Widget } from './schema.ts';

export function presentWidget({ widget, prices }: WidgetView): z.input<typeof Widget> {
  return {
    id: widget.id,
    vanity_id: widget.vanity_id,
    ownerid: widget.account_id,
    name: widget.name,
    wconfig: widget.wconfig,
    dir_sender_must_be_in_directory: widget.dir_sender_must_be_in_directory,
    is_campaign: widget.is_campaign,
    logo: widget.logo,
    website: widget.website,
    address: widget.address,
    stwitter: widget.stwitter,
    sfacebook: widget.sfacebook,
    sinstagram: widget.sinstagram,
    slinkedin: widget.slinkedin,
    syoutube: widget.syoutube,
    merge_tag_defaults: widget.merge_tag_defaults,
    public_share_enabled: Boolean(widget.public_share_enabled),
    stylebg: widget.stylebg,
    stylebghead: widget.stylebghead,
    stylebgbody: widget.stylebgbody,
    styletext: widget.styletext,
    styleheadtext: widget.styleheadtext,
    stylelink: widget.stylelink,
    style_fontsize: widget.style_fontsize,
    style_fontsize_header: widget.style_fontsize_header,
    widgetcss: widget.widgetcss,
    email_verification_required: Boolean(widget.email_verification_required),
    sender_email_domains_whitelist: widget.sender_email_domains_whitelist,
    recipient_email_domains_whitelist: widget.recipient_email_domains_whitelist,
    dir_session_timeout_minutes: widget.dir_session_timeout_minutes,
    ecardPrices: prices,
    createdat: widget.created_at.toISOString(),
    updatedat: widget.updated_at.toISOString(),
  };
}
