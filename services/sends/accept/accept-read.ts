// What an accept reads before its transaction, in one statement: the row of its Idempotency-Key, the eCard with its
// widget, the brand it is shown in (the eCard's own, else the account's default), whether the account's sending is
// suspended and whether any recipient is on its suppression list. Five statements through Sequelize's models before
// (docs/performance.md, "Accepts, round two"). A refusal reads its details after: which address is blocked.
import type { ServiceContext } from '../../context.ts';
import { QueryTypes, type Attributes } from 'sequelize';
import type { Ecard } from '../../../models/Ecard.ts';
import type { Models } from '../../../models/index.ts';
import { rawReader } from '../../../models/raw-rows.ts';
import type { Widget } from '../../../models/Widget.ts';
import { brandJoinsSql } from '../../brands/brands.ts';
import type { BrandView } from '../../brands/view.ts';
import { blockingValues } from './rules.ts';

/** The eCard's widget's columns an accept reads. */
export const ACCEPT_WIDGET_COLUMNS = ['id', 'vanity_id', 'dir_sender_must_be_in_directory', 'is_campaign', 'logo', 'website', 'address', 'stwitter', 'sfacebook', 'sinstagram', 'slinkedin', 'syoutube', 'merge_tag_defaults'] as const;
const KEY_COLUMNS = ['request_hash', 'send_id', 'created_at'] as const;
const BRAND_COLUMNS = ['id', 'name', 'logo_url', 'website', 'address', 'primary_color', 'accent_color', 'background_color', 'text_color', 'font', 'footer_text', 'social'] as const;

/** The eCard's widget, as far as an accept reads it. */
export type AcceptWidget = Pick<Widget, (typeof ACCEPT_WIDGET_COLUMNS)[number]>;

/** A brand as far as a snapshot takes it. */
export type AcceptBrand = Omit<BrandView, 'is_default' | 'created_at' | 'updated_at'>;

export interface AcceptReads {
  /** The Idempotency-Key's row, if the request has a key and the account used it. */
  key: { request_hash: string; send_id: number; created_at: Date } | null;
  /** The account's eCard of that id, disabled or not; null when there is none. */
  ecard: Attributes<Ecard> | null;
  widget: AcceptWidget | null;
  brand: AcceptBrand | null;
  suspended: boolean;
  /** Some recipient (its address, its hash or its domain) is on the account's suppression list. */
  suppressed: boolean;
}

type Row = Record<string, unknown>;

const readersOf = (models: Models) => ({
  ecard: rawReader(models.Ecard, 'e', { prefix: 'e_' }),
  widget: rawReader(models.Widget, 'w', { prefix: 'w_', only: ACCEPT_WIDGET_COLUMNS }),
  named: rawReader(models.Brand, 'b', { prefix: 'b_', only: BRAND_COLUMNS }),
  fallback: rawReader(models.Brand, 'd', { prefix: 'd_', only: BRAND_COLUMNS }),
  key: rawReader(models.IdempotencyKey, 'k', { prefix: 'k_', only: KEY_COLUMNS }),
});

/** The eCard and its widget as the caller read them already (a widget send): the accept reads neither again. */
export interface KnownRows {
  ecard: Attributes<Ecard>;
  widget: AcceptWidget;
}

// The tables' and columns' names as the models define them; one row whatever matches (the base row, every join on
// a unique key: the key's primary key, the eCard's and brand's ids, the one default brand of an account). With the
// eCard known, its brand id is a replacement and neither the eCard nor its widget is joined.
const sqlOf = (readers: ReturnType<typeof readersOf>, withEmails: boolean, known: boolean) => `SELECT ${known ? '' : `${readers.ecard.columns}, ${readers.widget.columns},`}
  ${readers.named.columns}, ${readers.fallback.columns},
  ${readers.key.columns},
  EXISTS (SELECT 1 FROM send_suspensions x WHERE x.account_id = :accountId) AS suspended,
  ${withEmails ? 'EXISTS (SELECT 1 FROM suppressions p WHERE p.account_id = :accountId AND p.value IN (:values))' : '0'} AS suppressed
FROM (SELECT 1 AS one) base
LEFT JOIN idempotency_keys k ON k.account_id = :accountId AND k.idem_key = :key
${known ? '' : `LEFT JOIN ecards e ON e.id = :ecardId AND e.account_id = :accountId
LEFT JOIN widgets w ON w.id = e.widget_id`}
${brandJoinsSql(known ? ':brandId' : 'e.ecardbrandid', ':accountId')}`;

/** Everything an accept checks before its transaction; `emails` are the recipients' (any case). */
export async function readForAccept(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  request: { ecardId: number; idempotencyKey: string | undefined },
  emails: readonly string[],
  known?: KnownRows,
): Promise<AcceptReads> {
  const { models } = ctx;
  const readers = readersOf(models);
  const values = blockingValues(emails.map((e) => e.toLowerCase()));
  const [row] = await models.sequelize.query<Row>(sqlOf(readers, values.length > 0, known !== undefined), {
    type: QueryTypes.SELECT,
    replacements: { accountId, key: request.idempotencyKey ?? null, ecardId: request.ecardId, brandId: known?.ecard.ecardbrandid ?? null, values },
  });
  return {
    key: readers.key.decodeJoined(row!),
    ecard: known ? known.ecard : readers.ecard.decodeJoined(row!),
    widget: known ? known.widget : readers.widget.decodeJoined(row!),
    // brandJoinsSql's rule: the brand the eCard names, else the account's default.
    brand: readers.named.decodeJoined(row!) ?? readers.fallback.decodeJoined(row!),
    suspended: Boolean(Number(row!.suspended)),
    suppressed: Boolean(Number(row!.suppressed)),
  };
}
