// eCards: save (sanitized, templates checked, artwork uploaded), copy, bulk updates, order, deletes, preview.
import { Op, type Attributes, type Transaction, type WhereOptions } from 'sequelize';
import { invalidParameter, missingField, notFound as notFoundError, requireFields, severalWidgets } from '../../lib/errors.ts';
import type { Ecard } from '../../models/Ecard.ts';
import { rawReader } from '../../models/raw-rows.ts';
import type { Widget } from '../../models/Widget.ts';
import { assertBrandOf } from '../brands/brands.ts';
import type { ServiceContext } from '../context.ts';
import { deleteGatedByToken } from '../gated-delete.ts';
import { duplicateImage, thumbFilesOf, uploadImage } from '../media.ts';
import { visibleEcardsWhere } from '../widgets/public/public.ts';
import { assertEcardRoom } from '../limits.ts';
import { keywordWhere } from '../search.ts';
import { assertTemplate, renderTemplate, sanitizedTemplate, sanitizeHtmlField, type TemplateValues } from './templates.ts';
import { ecardUsage, inUse } from '../usage.ts';
import { assertEditable, copyOfEcard, findWidget, findWidgetByVanity, newVanityId } from '../widgets/admin/widgets.ts';
import { writeTransaction } from '../../lib/db.ts';

export type { Ecard };
export { ECARD_MODES, ecardModeOf, ENVELOPE_THEMES, priceOf } from '../../models/Ecard.ts';

/** The spec's eCard field names and the columns that hold them. */
export const ECARD_FIELDS = {
  name: 'name',
  emailSubject: 'email_subject',
  header: 'header',
  details: 'details',
  ecardLink: 'ecard_link',
  url_redirect_after_send: 'url_redirect_after_send',
  disabled: 'disabled',
  canSchedule: 'can_schedule',
  ecardbrandid: 'ecardbrandid',
  ecard_mode: 'ecard_mode',
  envelope_bg_image_url: 'envelope_bg_image_url',
  envelope_audio_url: 'envelope_audio_url',
  envelope_video_url: 'envelope_video_url',
  envelope_color_settings: 'envelope_color_settings',
  envelope_auto_open: 'envelope_auto_open',
  envelope_confetti: 'envelope_confetti',
  envelope_theme: 'envelope_theme',
  envelope_audio_repeat: 'envelope_audio_repeat',
  ecardLinkAltText: 'ecard_link_alt_text',
  thumbnail_alt_label: 'thumbnail_alt_label',
  og_title: 'og_title',
  og_description: 'og_description',
  self_hosted_url: 'self_hosted_url',
  personalMessageBox: 'personal_message_box',
  predefinedScheduleOn: 'predefined_schedule_on',
  predefinedScheduleForced: 'predefined_schedule_forced',
  predefinedSchedule: 'predefined_schedule',
  publishOn: 'publish_on',
  expireOn: 'expire_on',
} as const;
export type EcardField = keyof typeof ECARD_FIELDS;
export type EcardInput = Partial<Record<EcardField, unknown>>;

const TEMPLATE_FIELDS = ['emailSubject', 'header', 'details'] as const;

const notFound = (ids: Array<number | string>) => notFoundError(`No eCard with id ${ids.join(', ')}`);

/** An eCard's columns as read, without a model instance (what `findOne` answers). */
export type EcardRow = Attributes<Ecard>;

/**
 * The eCard as `GET /ecard/findOne` shows it: one written-out SELECT, no model instance (the key API's most frequent
 * read; docs/performance.md, "Reads (issue 35 item 4)"). Writers use findEcard.
 */
export async function readEcard(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number): Promise<EcardRow> {
  const { models } = ctx;
  const reader = rawReader(models.Ecard, 'e');
  const [ecard] = await reader.select(`SELECT ${reader.columns} FROM ecards e WHERE e.id = :id AND e.account_id = :accountId`, { id, accountId });
  if (!ecard) throw notFound([id]);
  return ecard;
}

export async function findEcard(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<Ecard> {
  const { models } = ctx;
  const ecard = await models.Ecard.findOne({ where: { id, account_id: accountId }, ...(transaction ? { transaction } : {}) });
  if (!ecard) throw notFound([id]);
  return ecard;
}

/** The columns to write for the fields sent: templates checked as written, details sanitized and checked again. */
export function ecardColumns(input: EcardInput): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input) as Array<[EcardField, unknown]>) {
    if (value === undefined || !(field in ECARD_FIELDS)) continue;
    if (typeof value === 'string' && field === 'details') columns[ECARD_FIELDS[field]] = sanitizedTemplate(field, value);
    else if (typeof value === 'string' && (TEMPLATE_FIELDS as readonly string[]).includes(field)) {
      assertTemplate(field, value);
      columns[ECARD_FIELDS[field]] = value;
    } else columns[ECARD_FIELDS[field]] = value;
  }
  return columns;
}

async function editableWidget(ctx: Pick<ServiceContext, 'models'>, accountId: number, widgetId: number, transaction?: Transaction): Promise<Widget> {
  const widget = await findWidget(ctx, accountId, widgetId, transaction);
  assertEditable(widget);
  return widget;
}

async function nextDisplayOrder(ctx: Pick<ServiceContext, 'models'>, widgetId: number, transaction?: Transaction): Promise<number> {
  const { models } = ctx;
  const max = await models.Ecard.max<number | null, Ecard>('display_order', { where: { widget_id: widgetId }, ...(transaction ? { transaction } : {}) });
  return max === null ? 0 : Number(max) + 1;
}

/** 400 when the publish window would end before it starts (the values sent, over the stored ones). */
function assertPublishWindow(columns: Record<string, unknown>, existing: Ecard | undefined): void {
  const publishOn = 'publish_on' in columns ? (columns.publish_on as Date | null) : (existing?.publish_on ?? null);
  const expireOn = 'expire_on' in columns ? (columns.expire_on as Date | null) : (existing?.expire_on ?? null);
  if (publishOn && expireOn && publishOn.getTime() >= expireOn.getTime()) {
    throw invalidParameter(`myEcard.expireOn: must be later than publishOn (${publishOn.toISOString()})`);
  }
}

/** Creates (no id) or updates an eCard; artwork is a URL or an uploaded image, not both. */
export async function saveEcard(
  ctx: ServiceContext,
  accountId: number,
  input: { id: number | undefined; widgetid: number | undefined; fields: EcardInput; image: string | undefined },
): Promise<Ecard> {
  const { models } = ctx;
  if (input.image !== undefined && input.fields.self_hosted_url !== undefined) {
    throw invalidParameter('Give the artwork either as myEcard.self_hosted_url or as ecardimg, not both');
  }
  // A brand of another account, or none, is 404 (before anything else: it names a resource); null means the default.
  if (typeof input.fields.ecardbrandid === 'number') await assertBrandOf(ctx, accountId, input.fields.ecardbrandid);
  if (!input.id) requireFields({ 'myEcard.name': input.fields.name, 'myEcard.widgetid': input.widgetid });
  const columns = ecardColumns(input.fields);
  const existing = input.id ? await findEcard(ctx, accountId, input.id) : undefined;
  if (existing) assertEditable(await findWidget(ctx, accountId, existing.widget_id));
  const targetWidgetId = input.widgetid ?? existing!.widget_id;
  await editableWidget(ctx, accountId, targetWidgetId);
  // A new eCard, or one moved in, grows the target widget: checked before the image is stored, and again below.
  const grows = !existing || targetWidgetId !== existing.widget_id;
  if (grows) await assertEcardRoom(ctx, targetWidgetId, 1);
  assertPublishWindow(columns, existing);
  if (input.image !== undefined) columns.self_hosted_url = await uploadImage(ctx, accountId, input.image, 'ecardimg');
  // Artwork that is one of this account's uploads shows its thumbnail; any other URL shows as it is.
  if (columns.self_hosted_url !== undefined) columns.thumb_file = (await thumbFilesOf(ctx, accountId, [columns.self_hosted_url as string | null]))[0]!;

  return writeTransaction(models.sequelize, async (transaction) => {
    if (grows) await assertEcardRoom(ctx, targetWidgetId, 1, transaction);
    if (!existing) {
      const created = await models.Ecard.create(
        {
          ...(columns as Partial<Ecard>),
          account_id: accountId,
          widget_id: targetWidgetId,
          vanity_id: newVanityId(),
          name: columns.name as string,
          display_order: await nextDisplayOrder(ctx, targetWidgetId, transaction),
        },
        { transaction },
      );
      // Read back, so the columns the client left out show their database defaults.
      return created.reload({ transaction });
    }
    if (targetWidgetId !== existing.widget_id) {
      // Moving to another widget: to its end, without the old widget's price.
      Object.assign(columns, { widget_id: targetWidgetId, price: null, display_order: await nextDisplayOrder(ctx, targetWidgetId, transaction) });
    }
    return existing.update(columns, { transaction });
  });
}

/** Copies an eCard (design and image; the name is kept) into its own widget or another of the account's. */
export async function copyEcard(ctx: ServiceContext, accountId: number, ecardId: number, widgetId: number | undefined): Promise<Ecard> {
  const { models } = ctx;
  const source = await findEcard(ctx, accountId, ecardId);
  const target = await editableWidget(ctx, accountId, widgetId ?? source.widget_id);
  await assertEcardRoom(ctx, target.id, 1);
  const image = await duplicateImage(ctx, accountId, source.self_hosted_url);
  const [thumb] = await thumbFilesOf(ctx, accountId, [image]);
  return writeTransaction(models.sequelize, async (transaction) => {
    await assertEcardRoom(ctx, target.id, 1, transaction);
    return models.Ecard.create(
      {
        ...copyOfEcard(source, { widgetId: target.id, image, thumb: thumb!, displayOrder: await nextDisplayOrder(ctx, target.id, transaction) }),
        price: target.id === source.widget_id ? source.price : null,
      },
      { transaction },
    ).then((copy) => copy.reload({ transaction }));
  });
}

/** At most this many eCards answer get-ecards (the first in display order). */
export const SENDABLE_ECARDS_MAX = 500;

/**
 * What a sender picks from: the eCards of a widget (by its vanity id, compared case-sensitively) that its gallery
 * shows (enabled, inside their publish window), the first SENDABLE_ECARDS_MAX in display order.
 */
export async function sendableEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, widgetVanityId: string, now: Date): Promise<Ecard[]> {
  const { models } = ctx;
  const widget = await findWidgetByVanity(ctx, accountId, widgetVanityId);
  return models.Ecard.findAll({
    where: { [Op.and]: [{ widget_id: widget.id }, visibleEcardsWhere(now)] },
    order: [['display_order', 'ASC'], ['id', 'ASC']],
    limit: SENDABLE_ECARDS_MAX,
  });
}

/** What the console's Send page offers: every eCard of the account a send can use now (the gallery's rule), by widget, with the widget. */
export async function accountSendableEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, now: Date): Promise<Array<Ecard & { Widget?: { id: number; name: string } }>> {
  const { models } = ctx;
  return models.Ecard.findAll({
    where: { [Op.and]: [{ account_id: accountId }, visibleEcardsWhere(now)] },
    include: [{ model: models.Widget, attributes: ['id', 'name'] }],
    order: [['widget_id', 'ASC'], ['display_order', 'ASC'], ['id', 'ASC']],
    limit: SENDABLE_ECARDS_MAX,
  });
}

/** The eCards of the account with these ids, all or a 404 naming the missing ones. */
async function ownEcards(ctx: Pick<ServiceContext, 'models'>, accountId: number, ids: number[], transaction?: Transaction): Promise<Ecard[]> {
  const { models } = ctx;
  const unique = [...new Set(ids)];
  const ecards = await models.Ecard.findAll({ where: { id: unique, account_id: accountId }, order: [['id', 'ASC']], ...(transaction ? { transaction } : {}) });
  const missing = unique.filter((id) => !ecards.some((e) => e.id === id));
  if (missing.length) throw notFound(missing);
  return ecards;
}

async function assertWidgetsEditable(ctx: Pick<ServiceContext, 'models'>, accountId: number, widgetIds: number[]): Promise<void> {
  const { models } = ctx;
  const campaign = await models.Widget.findOne({ where: { id: [...new Set(widgetIds)], account_id: accountId, is_campaign: true } });
  if (campaign) assertEditable(campaign);
}

/** Sets one field on every targeted eCard (all eCards of a widget, or a list); returns how many. */
export async function bulkUpdateEcards(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  target: { widgetid?: number | undefined; ecardids?: number[] | undefined },
  field: EcardField,
  value: unknown,
): Promise<number> {
  const { models } = ctx;
  const columns = ecardColumns({ [field]: value });
  if (field === 'ecardbrandid' && typeof value === 'number') await assertBrandOf(ctx, accountId, value);
  let where: WhereOptions;
  if (target.widgetid !== undefined) {
    await editableWidget(ctx, accountId, target.widgetid);
    where = { widget_id: target.widgetid, account_id: accountId };
  } else if (target.ecardids?.length) {
    const ecards = await ownEcards(ctx, accountId, target.ecardids);
    await assertWidgetsEditable(ctx, accountId, ecards.map((e) => e.widget_id));
    where = { id: ecards.map((e) => e.id), account_id: accountId };
  } else {
    throw missingField('widgetid or ecardids is required');
  }
  const [updated] = await models.Ecard.update(columns, { where });
  return updated;
}

/** Puts the listed eCards first, in that order; the rest of the widget keeps its relative order after them. */
export async function saveOrder(ctx: Pick<ServiceContext, 'models'>, accountId: number, order: number[]): Promise<{ widgetid: number; order: number[] }> {
  const { models } = ctx;
  if (new Set(order).size !== order.length) throw invalidParameter('neworder lists an eCard more than once');
  const listed = await ownEcards(ctx, accountId, order);
  const widgetIds = [...new Set(listed.map((e) => e.widget_id))];
  if (widgetIds.length > 1) throw severalWidgets('neworder must list eCards of one widget');
  const widget = await editableWidget(ctx, accountId, widgetIds[0]!);
  return writeTransaction(models.sequelize, async (transaction) => {
    const all = await models.Ecard.findAll({ where: { widget_id: widget.id }, order: [['display_order', 'ASC'], ['id', 'ASC']], transaction });
    const rest = all.filter((e) => !order.includes(e.id)).map((e) => e.id);
    const full = [...order, ...rest];
    for (const [position, id] of full.entries()) {
      await models.Ecard.update({ display_order: position }, { where: { id }, transaction });
    }
    return { widgetid: widget.id, order: full };
  });
}

/** Deletes eCards for good, all or nothing; an eCard in use needs its token (several in use: one at a time). */
export async function deleteEcards(ctx: ServiceContext, accountId: number, ids: number[], token: string | undefined): Promise<number[]> {
  const { models } = ctx;
  const ecards = await ownEcards(ctx, accountId, ids);
  await assertWidgetsEditable(ctx, accountId, ecards.map((e) => e.widget_id));
  const unique = ecards.map((e) => e.id);
  const usage = await ecardUsage(ctx.hooks.usage, models, accountId, unique);
  const impact = unique.filter((id) => inUse(usage.get(id)!)).map((id) => ({ id, ...usage.get(id)! }));
  const removal = ctx.hooks.ecardsRemoved(accountId);
  await deleteGatedByToken(
    { models, accountId, now: ctx.now(), noun: 'eCard', purpose: 'ecard_delete_in_use', impact, token },
    async (transaction) => {
      await removal.inTransaction({ ecardIds: unique }, transaction);
      await models.Ecard.destroy({ where: { id: unique, account_id: accountId }, transaction });
    },
  );
  await removal.afterCommit();
  return unique;
}

/** Fields a preview may override: the texts and the envelope. */
export const OVERRIDABLE = [
  'emailSubject', 'header', 'details', 'envelope_bg_image_url', 'envelope_audio_url', 'envelope_video_url', 'envelope_color_settings', 'envelope_auto_open', 'envelope_confetti',
  'envelope_theme', 'envelope_audio_repeat',
] as const;

/** The template texts of an eCard row. */
export const textsOf = (ecard: Ecard) => ({ emailSubject: ecard.email_subject, header: ecard.header, details: ecard.details });

type Overrides = Partial<Record<(typeof OVERRIDABLE)[number], unknown>>;

// An override text as it is rendered: checked as written, then (details) sanitized and checked again.
function overrideText(overrideProps: Overrides, field: (typeof TEMPLATE_FIELDS)[number]): string | undefined {
  const override = overrideProps[field];
  if (typeof override !== 'string') return undefined;
  if (field === 'details') return sanitizedTemplate(`overrideProps.${field}`, override);
  assertTemplate(`overrideProps.${field}`, override);
  return override;
}

/** Renders an eCard as it would be sent; merge values cannot add markup (the result is sanitized again). */
export function renderEcard(
  texts: { emailSubject: string | null; header: string | null; details: string | null },
  input: { mergeTags: TemplateValues; overrideProps: Overrides; trialMode: boolean; fallbacks?: Record<string, string> | undefined },
) {
  const picked = Object.fromEntries(TEMPLATE_FIELDS.map((field) => [field, overrideText(input.overrideProps, field) ?? texts[field]])) as Record<
    (typeof TEMPLATE_FIELDS)[number],
    string | null
  >;
  const values = withFallbacks(input.mergeTags, input.fallbacks ?? {});
  const render = (field: (typeof TEMPLATE_FIELDS)[number]) =>
    renderTemplate(picked[field], values, input.trialMode, input.overrideProps[field] === undefined ? field : `overrideProps.${field}`);
  const subject = render('emailSubject');
  return {
    subject: input.trialMode ? `[Preview] ${subject}` : subject,
    header: render('header'),
    html: sanitizeHtmlField(render('details')),
  };
}

const deriveFirstName = (values: Record<string, TemplateValues[string]>) => {
  if (typeof values.recipient_name === 'string' && values.recipient_name && !values.recipient_first_name) values.recipient_first_name = values.recipient_name.split(/\s+/)[0]!;
};

/**
 * The merge values with the widget's fallbacks (`merge_tag_defaults`) in every tag that is missing or empty, built-in
 * tags included. The first name comes from a real recipient name before the fallbacks, else from the name's fallback.
 */
export function withFallbacks(mergeTags: TemplateValues, fallbacks: Record<string, string>): TemplateValues {
  const values: Record<string, TemplateValues[string]> = { ...mergeTags };
  deriveFirstName(values);
  for (const [tag, text] of Object.entries(fallbacks)) {
    if (tag !== '__proto__' && (values[tag] === undefined || values[tag] === '')) values[tag] = text;
  }
  deriveFirstName(values);
  return values;
}

/** A send's `overrideProps` texts, checked at accept: valid, allowed and within the bounds with the send's merge tags. */
export function checkOverrideTemplates(overrideProps: Overrides | undefined, mergeTags: TemplateValues | undefined): void {
  if (!overrideProps) return;
  renderEcard({ emailSubject: null, header: null, details: null }, { mergeTags: mergeTags ?? {}, overrideProps, trialMode: false });
}

/** The row ids of eCards named by numeric or vanity ids; 404 naming those that are unknown or not the account's. */
async function referencedEcardIds(ctx: Pick<ServiceContext, 'models'>, accountId: number, ids: string[]): Promise<number[]> {
  const { models } = ctx;
  const numeric = ids.filter((id) => /^\d{1,15}$/.test(id)).map(Number);
  const found = await models.Ecard.findAll({
    where: { account_id: accountId, [Op.or]: [{ id: numeric }, { vanity_id: ids }] },
    attributes: ['id', 'vanity_id'],
  });
  const missing = ids.filter((id) => !found.some((e) => String(e.id) === id || e.vanity_id === id));
  if (missing.length) throw notFound(missing);
  return found.map((e) => e.id);
}

export type EcardSort = 'createdat' | 'name' | 'id' | 'displayorder';
const SORT_COLUMNS: Record<EcardSort, string> = { createdat: 'created_at', name: 'name', id: 'id', displayorder: 'display_order' };
const DATE_WINDOWS_DAYS = { 'any-time': null, today: 1, 'last-week': 7, 'last-month': 30, 'last-year': 365 } as const;
export type DateWindow = keyof typeof DATE_WINDOWS_DAYS;
export const DATE_WINDOWS = Object.keys(DATE_WINDOWS_DAYS) as DateWindow[];

export async function searchEcards(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  now: Date,
  query: {
    page: number;
    perPage: number;
    keyword?: string | undefined;
    widgetID: number;
    ecardIDs: string[];
    filterByDate: DateWindow;
    sortBy: EcardSort;
    sortOrder?: 'asc' | 'desc' | undefined;
    includeCampaign: boolean;
  },
) {
  const { models } = ctx;
  const conditions: WhereOptions[] = [{ account_id: accountId }];
  if (query.keyword) {
    const quote = (column: string) => models.sequelize.getQueryInterface().quoteIdentifiers(column);
    conditions.push(keywordWhere(models.sequelize, [quote('Ecard.name'), quote('Ecard.details')], query.keyword));
  }
  // Id filters are references (decisions.md, Proof: isolation): an id that is not the account's is a 404.
  if (query.widgetID) conditions.push({ widget_id: (await findWidget(ctx, accountId, query.widgetID)).id });
  if (query.ecardIDs.length) conditions.push({ id: await referencedEcardIds(ctx, accountId, query.ecardIDs) });
  const days = DATE_WINDOWS_DAYS[query.filterByDate];
  if (days !== null) conditions.push({ created_at: { [Op.gte]: new Date(now.getTime() - days * 86_400_000) } });
  const direction = (query.sortOrder ?? (query.sortBy === 'displayorder' ? 'asc' : 'desc')).toUpperCase();
  const sortKey = query.sortBy === 'name' ? models.sequelize.fn('LOWER', models.sequelize.col('Ecard.name')) : SORT_COLUMNS[query.sortBy];
  const { rows, count } = await models.Ecard.findAndCountAll({
    where: { [Op.and]: conditions },
    include: [{ model: models.Widget, attributes: [], required: true, where: query.includeCampaign ? {} : { is_campaign: false } }],
    order: [[sortKey, direction], ['id', direction]],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  return { rows, count };
}
