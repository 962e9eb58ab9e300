// What an `ecard_bounced` event says of each recipient's bounce besides `bounced_at`: the parsed status the bounce
// listener stored (services/bounces/record.ts), never the report itself.
import type { BounceKind, SendRecipient } from '../../../models/SendRecipient.ts';

export interface BounceDetail {
  kind: BounceKind;
  status: string | null;
  diagnostic: string | null;
}

/** The recipient's bounce, or null when none came back. */
export const bounceDetailOf = (r: Pick<SendRecipient, 'bounce_kind' | 'bounce_status' | 'bounce_diagnostic'>): BounceDetail | null =>
  r.bounce_kind ? { kind: r.bounce_kind, status: r.bounce_status, diagnostic: r.bounce_diagnostic } : null;
