// What an accept reads before its transaction, in one statement: the row of its Idempotency-Key, the eCard with its
// widget, the brand it is shown in (the eCard's own, else the account's default), whether the account's sending is
// suspended and whether any recipient is on its suppression list. Five statements through Sequelize's models before
// (docs/performance.md, "Accepts, round two"). A refusal reads its details after: which address is blocked.
import { QueryTypes, type Attributes } from 'sequelize';
import { brandSocialOf, type BrandSocial } from '../../models/Brand.ts';
import type { Ecard } from '../../models/Ecard.ts';
import type { Models } from '../../models/index.ts';
import { rawReader, toDate, type RawReader } from '../../models/raw-rows.ts';
import { mergeTagDefaultsOf, type Widget } from '../../models/Widget.ts';
import type { BrandView } from '../brands/view.ts';
import { blockingValues } from './rules.ts';

/** The eCard's widget, as far as an accept reads it. */
export type AcceptWidget = Pick<
  Widget,
  'id' | 'vanity_id' | 'dir_sender_must_be_in_directory' | 'is_campaign' | 'logo' | 'website' | 'address' | 'stwitter' | 'sfacebook' | 'sinstagram' | 'slinkedin' | 'syoutube' | 'merge_tag_defaults'
>;

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

const WIDGET_COLUMNS = ['id', 'vanity_id', 'dir_sender_must_be_in_directory', 'is_campaign', 'logo', 'website', 'address', 'stwitter', 'sfacebook', 'sinstagram', 'slinkedin', 'syoutube', 'merge_tag_defaults'] as const;
const BRAND_COLUMNS = ['id', 'name', 'logo_url', 'website', 'address', 'primary_color', 'accent_color', 'background_color', 'text_color', 'font', 'footer_text', 'social'] as const;
const aliased = (alias: string, columns: readonly string[]) => columns.map((c) => `${alias}.${c} AS ${alias}_${c}`).join(', ');

type Row = Record<string, unknown>;

function brandOf(row: Row, alias: 'b' | 'd'): AcceptBrand | null {
  const at = (column: (typeof BRAND_COLUMNS)[number]) => row[`${alias}_${column}`];
  if (at('id') === null || at('id') === undefined) return null;
  const text = (column: (typeof BRAND_COLUMNS)[number]) => (at(column) as string | null) ?? null;
  return {
    id: Number(at('id')),
    name: at('name') as string,
    logo_url: text('logo_url'),
    website: text('website'),
    address: text('address'),
    primary_color: text('primary_color'),
    accent_color: text('accent_color'),
    background_color: text('background_color'),
    text_color: text('text_color'),
    font: at('font') as AcceptBrand['font'],
    footer_text: text('footer_text'),
    social: brandSocialOf(at('social')) satisfies BrandSocial,
  };
}

function widgetOf(row: Row): AcceptWidget | null {
  if (row.w_id === null || row.w_id === undefined) return null;
  const text = (column: string) => (row[`w_${column}`] as string | null) ?? null;
  return {
    id: Number(row.w_id),
    vanity_id: row.w_vanity_id as string,
    dir_sender_must_be_in_directory: Boolean(row.w_dir_sender_must_be_in_directory),
    is_campaign: Boolean(row.w_is_campaign),
    logo: text('logo'),
    website: text('website'),
    address: text('address'),
    stwitter: text('stwitter'),
    sfacebook: text('sfacebook'),
    sinstagram: text('sinstagram'),
    slinkedin: text('slinkedin'),
    syoutube: text('syoutube'),
    merge_tag_defaults: mergeTagDefaultsOf(row.w_merge_tag_defaults),
  };
}

// The tables' and columns' names as the models define them; one row whatever matches (the base row, every join on
// a unique key: the key's primary key, the eCard's and brand's ids, the one default brand of an account).
const sqlOf = (ecards: RawReader<Ecard>, withEmails: boolean) => `SELECT ${ecards.columns}, ${aliased('w', WIDGET_COLUMNS)},
  ${aliased('b', BRAND_COLUMNS)}, ${aliased('d', BRAND_COLUMNS)},
  k.request_hash AS k_request_hash, k.send_id AS k_send_id, k.created_at AS k_created_at,
  EXISTS (SELECT 1 FROM send_suspensions x WHERE x.account_id = :accountId) AS suspended,
  ${withEmails ? 'EXISTS (SELECT 1 FROM suppressions p WHERE p.account_id = :accountId AND p.value IN (:values))' : '0'} AS suppressed
FROM (SELECT 1 AS one) base
LEFT JOIN idempotency_keys k ON k.account_id = :accountId AND k.idem_key = :key
LEFT JOIN ecards e ON e.id = :ecardId AND e.account_id = :accountId
LEFT JOIN widgets w ON w.id = e.widget_id
LEFT JOIN brands b ON b.id = e.ecardbrandid AND b.account_id = :accountId
LEFT JOIN brands d ON d.default_for = :accountId AND d.account_id = :accountId`;

const readers = new WeakMap<Models['Ecard'], RawReader<Ecard>>();
const ecardReader = (models: Models) => readers.get(models.Ecard) ?? readers.set(models.Ecard, rawReader(models.Ecard, 'e', 'e_')).get(models.Ecard)!;

/** Everything an accept checks before its transaction; `emails` are the recipients' (any case). */
export async function readForAccept(
  models: Models,
  accountId: number,
  request: { ecardId: number; idempotencyKey: string | undefined },
  emails: readonly string[],
): Promise<AcceptReads> {
  const ecards = ecardReader(models);
  const values = blockingValues(emails.map((e) => e.toLowerCase()));
  const [row] = await models.sequelize.query<Row>(sqlOf(ecards, values.length > 0), {
    type: QueryTypes.SELECT,
    replacements: { accountId, key: request.idempotencyKey ?? null, ecardId: request.ecardId, values },
  });
  return decode(row!, ecards);
}

function decode(row: Row, ecards: RawReader<Ecard>): AcceptReads {
  return {
    key: row.k_send_id === null || row.k_send_id === undefined ? null : { request_hash: row.k_request_hash as string, send_id: Number(row.k_send_id), created_at: toDate(row.k_created_at) },
    ecard: row.e_id === null || row.e_id === undefined ? null : ecards.decode(row),
    widget: widgetOf(row),
    brand: brandOf(row, 'b') ?? brandOf(row, 'd'),
    suspended: Boolean(Number(row.suspended)),
    suppressed: Boolean(Number(row.suppressed)),
  };
}
