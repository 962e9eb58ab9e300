// What a widget send reads before anything else, in one written-out statement with no model instance: the public
// widget by its vanity id, its eCard by the eCard's vanity id, and the widget's account. Three Sequelize reads
// before (docs/performance.md, "Widget sends (P12), round two"). The widget's rule is findPublicWidget's
// (./public.ts): an unknown, private or campaign widget is the same 404.
import type { ServiceContext } from '../../context.ts';
import { QueryTypes, type Attributes } from 'sequelize';
import { notFound } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Models } from '../../../models/index.ts';
import { rawReader } from '../../../models/raw-rows.ts';
import type { Widget } from '../../../models/Widget.ts';
import { ACCEPT_WIDGET_COLUMNS } from '../../sends/accept/accept-read.ts';
import { isPublicWidget, WIDGET_NOT_FOUND } from './public.ts';

// The widget's columns a send reads (the accept's among them: it reads the widget no more); the account's
// timestamps are not read (nothing a send does with its account reads them).
const WIDGET_COLUMNS = [
  ...ACCEPT_WIDGET_COLUMNS, 'account_id', 'name', 'wconfig', 'public_share_enabled', 'email_verification_required', 'sender_email_domains_whitelist', 'recipient_email_domains_whitelist',
] as const;
const ACCOUNT_COLUMNS = ['id', 'name', 'plan', 'mode', 'live_account_id'] as const;

/** The widget as far as a send reads it. */
export type SendingWidget = Pick<Widget, (typeof WIDGET_COLUMNS)[number]>;

export interface WidgetSendReads {
  widget: SendingWidget;
  /** The widget's eCard of that vanity id, shown or not (the caller refuses it after the form token); null when none. */
  ecard: Attributes<Ecard> | null;
  account: Account;
}

// The widget's and the account's columns under their own names (w_…, a_…): the eCard's are unprefixed.
const readersOf = (models: Models) => ({
  widget: rawReader(models.Widget, 'w', { prefix: 'w_', only: WIDGET_COLUMNS }),
  account: rawReader(models.Account, 'a', { prefix: 'a_', only: ACCOUNT_COLUMNS }),
  ecard: rawReader(models.Ecard, 'e'),
});

// The vanity ids compare as the models' BINARY columns do (case-sensitively); the eCard is the widget's, of its account.
const sqlOf = (readers: ReturnType<typeof readersOf>) => `SELECT ${readers.widget.columns}, ${readers.account.columns}, ${readers.ecard.columns}
FROM widgets w
JOIN accounts a ON a.id = w.account_id
LEFT JOIN ecards e ON e.account_id = w.account_id AND e.widget_id = w.id AND e.vanity_id = :ecard
WHERE w.vanity_id = :vanity`;

/** The public widget `vanityId` (else findPublicWidget's 404), its eCard `ecardVanityId` if it has one, and the account. */
export async function readWidgetSend(ctx: Pick<ServiceContext, 'models'>, vanityId: string, ecardVanityId: string): Promise<WidgetSendReads> {
  const { models } = ctx;
  if (typeof vanityId !== 'string' || vanityId.length > 32) throw notFound(WIDGET_NOT_FOUND);
  const readers = readersOf(models);
  const [row] = await models.sequelize.query<Record<string, unknown>>(sqlOf(readers), { type: QueryTypes.SELECT, replacements: { vanity: vanityId, ecard: String(ecardVanityId) } });
  if (!row) throw notFound(WIDGET_NOT_FOUND);
  const widget = readers.widget.decode(row);
  if (!isPublicWidget(widget)) throw notFound(WIDGET_NOT_FOUND);
  // An instance as findByPk gives it (the send use case takes one), built from the row: no statement of its own.
  const account = models.Account.build(readers.account.decode(row), { isNewRecord: false, raw: true });
  return { widget, ecard: readers.ecard.decodeJoined(row), account };
}
