// Widgets: create and update (partial), search, copy with eCards, and deletes gated by confirmation tokens.
import { Op, type Attributes, type Transaction, type WhereOptions } from 'sequelize';
import { campaignWidget, invalidParameter, notFound as notFoundError, requireFields, unknownEcardPrice } from '../../../lib/errors.ts';
import { randomId } from '../../../lib/ids.ts';
import { priceOf, type Ecard } from '../../../models/Ecard.ts';
import { rawReader } from '../../../models/raw-rows.ts';
import type { Widget } from '../../../models/Widget.ts';
import { spendToken } from '../../confirmation-tokens.ts';
import { deleteGatedByToken } from '../../gated-delete.ts';
import type { ServiceContext } from '../../context.ts';
import { duplicateImages, thumbFilesOf } from '../../media.ts';
import { assertEcardsFit } from '../../limits.ts';
import { keywordWhere } from '../../search.ts';
import { inUse, widgetUsage, type WidgetImpact } from '../../usage.ts';
import { writeTransaction } from '../../../lib/db.ts';
import { sanitizeWidgetCss } from '../public/css.ts';
import { checkWconfig } from '../public/display.ts';


export const newVanityId = () => randomId(12);

const notFound = (what: string, id: number | string) => notFoundError(`No ${what} with id ${id}`);

/** One widget of the account (404 for another account's, as for a missing one). */
export async function findWidget(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<Widget> {
  const { models } = ctx;
  const widget = await models.Widget.findOne({ where: { id, account_id: accountId }, ...(transaction ? { transaction } : {}) });
  if (!widget) throw notFound('widget', id);
  return widget;
}

/** A widget of the account by its vanity id (404 for another account's, as for a missing one). */
export async function findWidgetByVanity(ctx: Pick<ServiceContext, 'models'>, accountId: number, vanityId: string): Promise<Widget> {
  const { models } = ctx;
  const widget = await models.Widget.findOne({ where: { vanity_id: vanityId, account_id: accountId } });
  if (!widget) throw notFound('widget', vanityId);
  return widget;
}

/** Campaign-backed widgets change only through the campaign endpoints. */
export function assertEditable(widget: Widget): void {
  if (widget.is_campaign) {
    throw campaignWidget(`Widget ${widget.id} belongs to a campaign; change it through the campaign endpoints`);
  }
}

/** Each widget's `ecardPrices` map (eCard id as a string → price), in one query for all of them. */
export async function pricesOf(ctx: Pick<ServiceContext, 'models'>, widgetIds: number[]): Promise<Map<number, Record<string, number>>> {
  const { models } = ctx;
  const prices = new Map<number, Record<string, number>>(widgetIds.map((id) => [id, {}]));
  if (widgetIds.length === 0) return prices;
  // Three columns as plain rows: a page of widgets has as many priced eCards, and instances of the wide model cost
  // more than the statement (docs/performance.md, "Round six").
  const priced = await models.Ecard.findAll({ attributes: ['id', 'widget_id', 'price'], where: { widget_id: widgetIds, price: { [Op.ne]: null } }, order: [['id', 'ASC']], raw: true });
  for (const e of priced) prices.get(e.widget_id)![String(e.id)] = priceOf(e)!;
  return prices;
}

export type { Widget };

/** A widget's stored values: an instance, or a row a list read without making one. */
export type WidgetRow = Attributes<Widget>;

/** A widget as the surfaces show it: its row and its eCards' prices. */
export interface WidgetView {
  widget: WidgetRow;
  prices: Record<string, number>;
}

/** Widgets with their prices, read in one query. */
export async function widgetViews(ctx: Pick<ServiceContext, 'models'>, widgets: WidgetRow[]): Promise<WidgetView[]> {
  const prices = await pricesOf(ctx, widgets.map((w) => w.id));
  return widgets.map((widget) => ({ widget, prices: prices.get(widget.id)! }));
}

export async function widgetView(ctx: Pick<ServiceContext, 'models'>, widget: Widget): Promise<WidgetView> {
  return (await widgetViews(ctx, [widget]))[0]!;
}

/** The widget's own details (fill what the brand leaves empty) and flags a copy keeps with its configuration. */
export const WIDGET_DETAILS = [
  'logo', 'website', 'address', 'stwitter', 'sfacebook', 'sinstagram', 'slinkedin', 'syoutube', 'merge_tag_defaults', 'public_share_enabled',
  // The public widget's look and sender rules.
  'stylebg', 'stylebghead', 'stylebgbody', 'styletext', 'styleheadtext', 'stylelink', 'style_fontsize', 'style_fontsize_header', 'widgetcss',
  'email_verification_required', 'sender_email_domains_whitelist', 'recipient_email_domains_whitelist', 'dir_session_timeout_minutes',
] as const;

export interface WidgetInput {
  name?: string | undefined;
  wconfig?: Record<string, unknown> | undefined;
  dir_sender_must_be_in_directory?: boolean | undefined;
  logo?: string | null | undefined;
  website?: string | null | undefined;
  address?: string | null | undefined;
  stwitter?: string | null | undefined;
  sfacebook?: string | null | undefined;
  sinstagram?: string | null | undefined;
  slinkedin?: string | null | undefined;
  syoutube?: string | null | undefined;
  merge_tag_defaults?: Record<string, string> | undefined;
  public_share_enabled?: boolean | undefined;
  stylebg?: string | null | undefined;
  stylebghead?: string | null | undefined;
  stylebgbody?: string | null | undefined;
  styletext?: string | null | undefined;
  styleheadtext?: string | null | undefined;
  stylelink?: string | null | undefined;
  style_fontsize?: number | null | undefined;
  style_fontsize_header?: number | null | undefined;
  /** As written; stored sanitized. */
  widgetcss?: string | null | undefined;
  email_verification_required?: boolean | undefined;
  /** Normalized already (one lower-case domain per line), null for none. */
  sender_email_domains_whitelist?: string | null | undefined;
  recipient_email_domains_whitelist?: string | null | undefined;
  dir_session_timeout_minutes?: number | undefined;
}

/**
 * The checks a widget's fields need beyond their shapes, before anything is written: wconfig's display keys
 * (other keys are kept as written), framing origins (http:// only where WIDGET_ALLOW_HTTP_ORIGINS allows), and
 * the owner's CSS, which is stored sanitized. 400 invalid_parameter naming the field.
 */
export function checkedFields(ctx: ServiceContext, input: WidgetInput): WidgetInput {
  const checked = { ...input };
  if (input.wconfig !== undefined) {
    const display = checkWconfig(input.wconfig);
    if (!display.ok) throw invalidParameter(`widget.${display.message}`, { issues: [display.issue] });
    const origins = input.wconfig.allowedOrigins as string[] | undefined;
    const http = origins?.find((origin) => origin.startsWith('http://'));
    if (http && !ctx.config.widgetAllowHttpOrigins) throw invalidParameter(`widget.wconfig.allowedOrigins: ${http} is not an https origin`);
  }
  if (typeof input.widgetcss === 'string') {
    const css = sanitizeWidgetCss(input.widgetcss);
    if (!css.ok) throw invalidParameter(`widget.widgetcss: ${css.message}`);
    checked.widgetcss = css.css.trim() === '' ? null : css.css;
  }
  return checked;
}

// The fields sent, as columns (a field left out keeps its value; null clears a detail).
const sentFields = (input: WidgetInput) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<Widget>;

// Sets the map whole: listed eCards get their price, every other eCard of the widget none.
async function setPrices(ctx: Pick<ServiceContext, 'models'>, widget: Widget, prices: Record<string, number>, transaction: Transaction): Promise<void> {
  const { models } = ctx;
  const ids = Object.keys(prices).map(Number);
  const ecards = ids.length ? await models.Ecard.findAll({ where: { id: ids, widget_id: widget.id }, transaction }) : [];
  const unknown = ids.filter((id) => !ecards.some((e) => e.id === id));
  if (unknown.length) {
    // An id that is no eCard of this account is a reference to nothing here (404); the account's own eCard of
    // another widget breaks the rule of the map (422).
    const owned = await models.Ecard.findAll({ where: { id: unknown, account_id: widget.account_id }, attributes: ['id'], transaction });
    const missing = unknown.filter((id) => !owned.some((e) => e.id === id));
    if (missing.length) throw notFoundError(`No eCard with id ${missing.join(', ')}`);
    throw unknownEcardPrice(`ecardPrices names eCards that are not in widget ${widget.id}: ${unknown.join(', ')}`);
  }
  await models.Ecard.update({ price: null }, { where: { widget_id: widget.id }, transaction });
  // By id, not through the loaded rows: a row already at its price would see no change and keep the null above.
  for (const ecard of ecards) await models.Ecard.update({ price: prices[String(ecard.id)]! }, { where: { id: ecard.id }, transaction });
}

/** Creates (id 0 or absent) or updates a widget; turning the directory rule off needs a token. */
export async function saveWidget(
  ctx: ServiceContext,
  accountId: number,
  input: { id: number | undefined; widget: WidgetInput; prices: Record<string, number> | undefined; token: string | undefined },
): Promise<Widget> {
  const { models } = ctx;
  const fields = checkedFields(ctx, input.widget);
  return writeTransaction(models.sequelize, async (transaction) => {
    let widget: Widget;
    if (!input.id) {
      requireFields({ 'widget.name': input.widget.name, 'widget.wconfig': input.widget.wconfig });
      widget = await models.Widget.create(
        {
          ...sentFields(fields),
          account_id: accountId,
          vanity_id: newVanityId(),
          name: input.widget.name!,
          wconfig: input.widget.wconfig!,
          dir_sender_must_be_in_directory: input.widget.dir_sender_must_be_in_directory ?? false,
        },
        { transaction },
      );
      // Read back, so the fields left out show their database defaults.
      await widget.reload({ transaction });
    } else {
      widget = await findWidget(ctx, accountId, input.id, transaction);
      assertEditable(widget);
      if (widget.dir_sender_must_be_in_directory && input.widget.dir_sender_must_be_in_directory === false) {
        await spendToken(
          ctx,
          {
            accountId,
            purpose: 'widget_dir_sender_off',
            resourceId: String(widget.id),
            token: input.token,
            now: ctx.now(),
            message: 'Turning off dir_sender_must_be_in_directory needs an otp_confirmation_token issued for this widget',
          },
          transaction,
        );
      }
      await widget.update(sentFields(fields), { transaction });
    }
    if (input.prices) await setPrices(ctx, widget, input.prices, transaction);
    return widget;
  });
}

export type WidgetSort = 'createdat' | 'name' | 'id';
const SORT_COLUMNS: Record<WidgetSort, string> = { createdat: 'created_at', name: 'name', id: 'id' };

export async function searchWidgets(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  query: { page: number; perPage: number; keyword?: string | undefined; sortBy: WidgetSort; sortOrder: 'asc' | 'desc' },
) {
  const { models } = ctx;
  const where: WhereOptions = { account_id: accountId, is_campaign: false };
  const conditions: WhereOptions[] = [where];
  if (query.keyword) conditions.push(keywordWhere(models.sequelize, ['name'], query.keyword));
  const direction = query.sortOrder.toUpperCase();
  // Names sort case-insensitively on both databases (SQLite's default collation is binary).
  const sortKey = query.sortBy === 'name' ? models.sequelize.fn('LOWER', models.sequelize.col('name')) : SORT_COLUMNS[query.sortBy];
  const { rows, count } = await models.Widget.findAndCountAll({
    where: { [Op.and]: conditions },
    order: [[sortKey, direction], ['id', direction]],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
    // Plain rows, decoded as the model's attributes: a list only reads its widgets (docs/performance.md, "Round six").
    raw: true,
  });
  const reader = rawReader(models.Widget, 'widgets');
  return { rows: (rows as unknown as Array<Record<string, unknown>>).map((row) => reader.decode(row) as WidgetRow), count };
}

/** Copies a widget (named `Copy - <name>`, flags kept) with its first `limit` eCards in display order. */
export async function copyWidget(ctx: ServiceContext, accountId: number, widgetId: number, limit: number | undefined): Promise<Widget> {
  const { models } = ctx;
  const source = await findWidget(ctx, accountId, widgetId);
  assertEditable(source);
  const ecards = await models.Ecard.findAll({
    where: { widget_id: source.id },
    order: [['display_order', 'ASC'], ['id', 'ASC']],
    ...(limit === undefined ? {} : { limit }),
  });
  // The copy is a new widget: its eCards must fit the cap (a source already over it copies only with a limit).
  assertEcardsFit(ctx, ecards.length);
  // Images first (files, outside the transaction, one at a time); an unused copy is harmless, a shared file is not.
  const images = await duplicateImages(ctx, accountId, ecards.map((e) => e.self_hosted_url));
  const thumbs = await thumbFilesOf(ctx, accountId, images);
  return writeTransaction(models.sequelize, async (transaction) => {
    const copy = await models.Widget.create(
      {
        account_id: accountId,
        vanity_id: newVanityId(),
        name: `Copy - ${source.name}`.slice(0, 200),
        wconfig: source.wconfig,
        dir_sender_must_be_in_directory: source.dir_sender_must_be_in_directory,
        ...Object.fromEntries(WIDGET_DETAILS.map((field) => [field, source[field]])),
      },
      { transaction },
    );
    for (const [i, ecard] of ecards.entries()) {
      await models.Ecard.create(copyOfEcard(ecard, { widgetId: copy.id, image: images[i]!, thumb: thumbs[i]!, displayOrder: i }), { transaction });
    }
    return copy.reload({ transaction });
  });
}

/**
 * The attributes of a copy of an eCard (design, form fields, price and image) for another or the same widget; the
 * image is the copy's own (duplicated), with its own thumbnail (`thumbFilesOf`).
 */
export function copyOfEcard(ecard: Ecard, target: { widgetId: number; image: string | null; thumb: string | null; displayOrder: number }) {
  const { id: _id, vanity_id: _vanity, created_at: _c, updated_at: _u, ...design } = ecard.get({ plain: true });
  return { ...design, widget_id: target.widgetId, vanity_id: newVanityId(), self_hosted_url: target.image, thumb_file: target.thumb, display_order: target.displayOrder };
}

/**
 * Deletes widgets with their eCards, all or nothing. Widgets in use need a token: one in-use widget takes its
 * own token; several in use at once are refused with the impact of each, to be deleted one at a time.
 */
export async function deleteWidgets(ctx: ServiceContext, accountId: number, ids: number[], token: string | undefined): Promise<number[]> {
  const { models } = ctx;
  const unique = [...new Set(ids)];
  const widgets = await models.Widget.findAll({ where: { id: unique, account_id: accountId } });
  const missing = unique.filter((id) => !widgets.some((w) => w.id === id));
  if (missing.length) throw notFoundError(`No widget with id ${missing.join(', ')}`);
  widgets.forEach(assertEditable);

  const usage = await widgetUsage(ctx.hooks.usage, models, accountId, unique);
  const counts = await models.Ecard.count({ where: { widget_id: unique }, group: ['widget_id'] });
  const ecardCount = new Map(counts.map((c) => [Number(c.widget_id), Number(c.count)]));
  const impact: WidgetImpact[] = unique
    .filter((id) => inUse(usage.get(id)!))
    .map((id) => ({ id, ecards: ecardCount.get(id) ?? 0, ...usage.get(id)! }));
  const removal = ctx.hooks.ecardsRemoved(accountId);
  await deleteGatedByToken(
    { models, accountId, now: ctx.now(), noun: 'widget', purpose: 'widget_delete', impact, token },
    async (transaction) => {
      await removal.inTransaction({ widgetIds: unique }, transaction);
      await models.Ecard.destroy({ where: { widget_id: unique, account_id: accountId }, transaction });
      await models.Widget.destroy({ where: { id: unique, account_id: accountId }, transaction });
    },
  );
  await removal.afterCommit();
  return unique;
}
