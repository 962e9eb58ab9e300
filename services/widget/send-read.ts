// What a widget send reads before anything else, in one written-out statement with no model instance: the public
// widget by its vanity id, its eCard by the eCard's vanity id, and the widget's account. Three Sequelize reads
// before (docs/performance.md, "Widget sends (P12), round two"). The widget's rule is findPublicWidget's
// (./public.ts): an unknown, private or campaign widget is the same 404.
import { QueryTypes, type Attributes } from 'sequelize';
import { notFound } from '../../lib/errors.ts';
import type { Account } from '../../models/Account.ts';
import type { Ecard } from '../../models/Ecard.ts';
import type { Models } from '../../models/index.ts';
import { rawReader, type RawReader } from '../../models/raw-rows.ts';
import type { Widget } from '../../models/Widget.ts';
import { WIDGET_NOT_FOUND } from './public.ts';

/** The widget as far as a send reads it. */
export type SendingWidget = Pick<
  Widget,
  | 'id' | 'account_id' | 'vanity_id' | 'name' | 'wconfig' | 'email_verification_required' | 'dir_sender_must_be_in_directory'
  | 'sender_email_domains_whitelist' | 'recipient_email_domains_whitelist'
>;

export interface WidgetSendReads {
  widget: SendingWidget;
  /** The widget's eCard of that vanity id, shown or not (the caller refuses it after the form token); null when none. */
  ecard: Attributes<Ecard> | null;
  account: Account;
}

// The widget's and the account's columns under their own names (w_…, a_…): the eCard's are the reader's, unprefixed.
const WIDGET_COLUMNS = [
  'id', 'account_id', 'vanity_id', 'name', 'wconfig', 'public_share_enabled', 'is_campaign', 'email_verification_required', 'dir_sender_must_be_in_directory',
  'sender_email_domains_whitelist', 'recipient_email_domains_whitelist',
] as const;
// The account's timestamps are not read: nothing a send does with its account reads them.
const ACCOUNT_COLUMNS = ['id', 'name', 'plan', 'mode', 'live_account_id'] as const;
const aliased = (alias: string, columns: readonly string[]) => columns.map((c) => `${alias}.${c} AS ${alias}_${c}`).join(', ');

const readers = new WeakMap<Models['Ecard'], RawReader<Ecard>>();
const ecardReader = (models: Models) => readers.get(models.Ecard) ?? readers.set(models.Ecard, rawReader(models.Ecard, 'e')).get(models.Ecard)!;

type Row = Record<string, unknown>;

// The vanity ids compare as the models' BINARY columns do (case-sensitively); the eCard is the widget's, of its account.
const sqlOf = (ecards: RawReader<Ecard>) => `SELECT ${aliased('w', WIDGET_COLUMNS)}, ${aliased('a', ACCOUNT_COLUMNS)}, ${ecards.columns}
FROM widgets w
JOIN accounts a ON a.id = w.account_id
LEFT JOIN ecards e ON e.account_id = w.account_id AND e.widget_id = w.id AND e.vanity_id = :ecard
WHERE w.vanity_id = :vanity`;

function widgetOf(row: Row): SendingWidget & Pick<Widget, 'public_share_enabled' | 'is_campaign'> {
  const raw = row.w_wconfig;
  return {
    id: Number(row.w_id),
    account_id: Number(row.w_account_id),
    vanity_id: row.w_vanity_id as string,
    name: row.w_name as string,
    wconfig: (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>,
    public_share_enabled: Boolean(row.w_public_share_enabled),
    is_campaign: Boolean(row.w_is_campaign),
    email_verification_required: Boolean(row.w_email_verification_required),
    dir_sender_must_be_in_directory: Boolean(row.w_dir_sender_must_be_in_directory),
    sender_email_domains_whitelist: (row.w_sender_email_domains_whitelist as string | null) ?? null,
    recipient_email_domains_whitelist: (row.w_recipient_email_domains_whitelist as string | null) ?? null,
  };
}

/** The public widget `vanityId` (else findPublicWidget's 404), its eCard `ecardVanityId` if it has one, and the account. */
export async function readWidgetSend(models: Models, vanityId: string, ecardVanityId: string): Promise<WidgetSendReads> {
  if (typeof vanityId !== 'string' || vanityId.length > 32) throw notFound(WIDGET_NOT_FOUND);
  const ecards = ecardReader(models);
  const [row] = await models.sequelize.query<Row>(sqlOf(ecards), { type: QueryTypes.SELECT, replacements: { vanity: vanityId, ecard: String(ecardVanityId) } });
  if (!row) throw notFound(WIDGET_NOT_FOUND);
  const widget = widgetOf(row);
  if (!widget.public_share_enabled || widget.is_campaign) throw notFound(WIDGET_NOT_FOUND);
  const ecard = row.id === null || row.id === undefined ? null : ecards.decode(row);
  // An instance as findByPk gives it (the send use case takes one), built from the row: no statement of its own.
  const account = models.Account.build(
    { id: Number(row.a_id), name: row.a_name as string, plan: row.a_plan as Account['plan'], mode: row.a_mode as Account['mode'], live_account_id: (row.a_live_account_id as number | null) ?? null },
    { isNewRecord: false, raw: true },
  );
  return { widget, ecard, account };
}
