// The card page's read (`GET /e/<pageId>`): a recipient's own page with everything it shows (the recipient, its
// send, the send's design, the sending widget's public link) in one statement. findPage, loadSnapshot and
// publicWidgetUrl took five round trips through Sequelize's models for the same rows, most of a page's time
// (docs/performance.md, "Reads (issue 35 item 4)"). The page's actions (the open, the thanks) still find their page
// with findPage: they write, and are once per person.
import { QueryTypes } from 'sequelize';
import type { Send } from '../../models/Send.ts';
import type { ServiceContext } from '../context.ts';
import { publicWidgetSql } from '../widget/public.ts';
import { ownPageShownSql } from './page-shown.ts';
import type { PageRecipient, PageSend } from './page.ts';

export interface OwnPage {
  send: PageSend & Pick<Send, 'mode'>;
  recipient: PageRecipient;
  /** The row id of the send (its legacy snapshot, when it has no design). */
  sendPk: number;
  opened: boolean;
  /** The send's design: its SHA-256 (what it is known by) and JSON text; null for a send from before designs were shared. */
  design: { sha256: string; text: string } | null;
  /** The sending widget, when it still exists. */
  widget: { vanityId: string; public: boolean } | null;
}

interface Row {
  /** ownPageShownSql: 1 when the recipient's page shows. */
  shown: number | string;
  recipient_name: string;
  rendered_subject: string | null;
  rendered_header: string | null;
  rendered_html: string | null;
  opened_at: unknown;
  send_pk: number;
  mode: Send['mode'];
  locale: string;
  override_props: string | null;
  sender_name: string;
  personal_message: string | null;
  design_sha256: string | null;
  design: string | null;
  vanity_id: string | null;
  /** publicWidgetSql: 1 when the sending widget is public (null without a widget). */
  widget_public: number | string | null;
}

// The tables' names as the models define them (one statement, both databases).
const SQL = `SELECT ${ownPageShownSql('r', 's')} AS shown, r.recipient_name, r.rendered_subject, r.rendered_header, r.rendered_html,
  r.opened_at, s.id AS send_pk, s.mode, s.locale, s.override_props, s.sender_name, s.personal_message,
  d.sha256 AS design_sha256, d.design, w.vanity_id, ${publicWidgetSql('w')} AS widget_public
FROM send_recipients r
JOIN sends s ON s.id = r.send_id
LEFT JOIN send_design_refs dr ON dr.send_id = s.id
LEFT JOIN send_designs d ON d.id = dr.design_id
LEFT JOIN widgets w ON w.id = s.widget_id
WHERE r.page_id = :pageId`;

/**
 * The recipient whose own page this is: `undefined` when no recipient has that page id (it may be a send's shared
 * id: findPage reads those), null when the recipient's page is not there (as findPage says: not rendered yet, failed,
 * canceled, or a send not pending or sent).
 */
export async function readOwnPage(ctx: Pick<ServiceContext, 'models'>, pageId: string): Promise<OwnPage | null | undefined> {
  const [row] = await ctx.models.sequelize.query<Row>(SQL, { type: QueryTypes.SELECT, replacements: { pageId } });
  if (!row) return undefined;
  if (Number(row.shown) !== 1 || row.rendered_html === null) return null;
  return {
    send: { locale: row.locale, override_props: row.override_props, sender_name: row.sender_name, personal_message: row.personal_message, mode: row.mode },
    recipient: { recipient_name: row.recipient_name, rendered_subject: row.rendered_subject, rendered_header: row.rendered_header, rendered_html: row.rendered_html },
    sendPk: row.send_pk,
    opened: row.opened_at !== null,
    design: row.design_sha256 === null || row.design === null ? null : { sha256: row.design_sha256, text: row.design },
    widget: row.vanity_id === null ? null : { vanityId: row.vanity_id, public: Number(row.widget_public) === 1 },
  };
}
