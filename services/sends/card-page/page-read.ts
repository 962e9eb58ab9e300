// The card page's read (`GET /e/<pageId>`): a recipient's own page with everything it shows (the recipient, its
// send, the send's design, the sending widget's public link) in one statement. findPage, loadSnapshot and
// publicWidgetUrl took five round trips through Sequelize's models for the same rows, most of a page's time
// (docs/performance.md, "Reads (issue 35 item 4)"). The page's actions (the open, the thanks) still find their page
// with findPage: they write, and are once per person.
import { QueryTypes } from 'sequelize';
import type { Models } from '../../../models/index.ts';
import { rawReader } from '../../../models/raw-rows.ts';
import type { Send } from '../../../models/Send.ts';
import type { ServiceContext } from '../../context.ts';
import { isPublicWidget } from '../../widgets/public/public.ts';
import { ownPageShown } from './page-shown.ts';
import type { PageRecipient, PageSend } from './page.ts';

export interface OwnPage {
  send: PageSend & Pick<Send, 'mode'>;
  recipient: PageRecipient;
  opened: boolean;
  /** The send's design: its SHA-256 (what it is known by) and JSON text; null for a send that has none (see loadSnapshot). */
  design: { sha256: string; text: string } | null;
  /** The sending widget, when it still exists. */
  widget: { vanityId: string; public: boolean } | null;
}

type Row = Record<string, unknown>;

// One reader per table joined: each column decoded as its model reads it (dates, booleans), no hand-written row type.
const readersOf = (models: Models) => ({
  recipient: rawReader(models.SendRecipient, 'r', { only: ['status', 'recipient_name', 'rendered_subject', 'rendered_header', 'rendered_html', 'opened_at'] }),
  send: rawReader(models.Send, 's', { prefix: 's_', only: ['id', 'status', 'mode', 'locale', 'override_props', 'sender_name', 'personal_message'] }),
  design: rawReader(models.SendDesign, 'd', { prefix: 'd_', only: ['sha256', 'design'] }),
  widget: rawReader(models.Widget, 'w', { prefix: 'w_', only: ['vanity_id', 'public_share_enabled', 'is_campaign'] }),
});

// The tables' names as the models define them (one statement, both databases). Made once per set of models.
const statements = new WeakMap<Models, { readers: ReturnType<typeof readersOf>; sql: string }>();
const statementOf = (models: Models) => statements.get(models) ?? statements.set(models, { readers: readersOf(models), sql: sqlOf(readersOf(models)) }).get(models)!;
const sqlOf = (readers: ReturnType<typeof readersOf>) => `SELECT ${readers.recipient.columns},
  ${readers.send.columns}, ${readers.design.columns}, ${readers.widget.columns}
FROM send_recipients r
JOIN sends s ON s.id = r.send_id
LEFT JOIN send_design_refs dr ON dr.send_id = s.id
LEFT JOIN send_designs d ON d.id = dr.design_id
LEFT JOIN widgets w ON w.id = s.widget_id
WHERE r.page_id = :pageId`;

/**
 * The recipient whose own page this is: `undefined` when no recipient has that page id (it may be a send's shared
 * id: findPage reads those), null when the recipient's page is not there (the rule findPage applies: page-shown.ts).
 */
export async function readOwnPage(ctx: Pick<ServiceContext, 'models'>, pageId: string): Promise<OwnPage | null | undefined> {
  const { readers, sql } = statementOf(ctx.models);
  const [row] = await ctx.models.sequelize.query<Row>(sql, { type: QueryTypes.SELECT, replacements: { pageId } });
  if (!row) return undefined;
  const recipient = readers.recipient.decode(row);
  const send = readers.send.decode(row);
  if (recipient.rendered_html === null || !ownPageShown(recipient, send.status)) return null;
  const design = readers.design.decodeJoined(row);
  const widget = readers.widget.decodeJoined(row);
  return {
    send: { locale: send.locale, override_props: send.override_props, sender_name: send.sender_name, personal_message: send.personal_message, mode: send.mode },
    recipient: { recipient_name: recipient.recipient_name, rendered_subject: recipient.rendered_subject, rendered_header: recipient.rendered_header, rendered_html: recipient.rendered_html },
    opened: recipient.opened_at !== null,
    design: design === null ? null : { sha256: design.sha256, text: design.design },
    widget: widget === null ? null : { vanityId: widget.vanity_id, public: isPublicWidget(widget) },
  };
}
