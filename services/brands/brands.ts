// Brands: list, find, save (one default per account, moved by `is_default`), delete (never the default; a brand
// eCards use needs a `brand_delete` token, and its eCards fall back to the default), and the brand a card resolves to.
import { Op, type Transaction } from 'sequelize';
import { defaultBrand, notFound, requireFields } from '../../lib/errors.ts';
import type { Brand, BrandFont, BrandSocial } from '../../models/Brand.ts';
import { SOCIAL_NETWORKS } from '../../models/Brand.ts';
import { accountTransaction } from '../account-lock.ts';
import type { ServiceContext } from '../context.ts';
import { deleteGatedByToken } from '../gated-delete.ts';
import { brandView, type BrandView } from './view.ts';

export type { BrandView };

/** The settable fields of a brand (all optional: updates are partial; `social` is replaced whole). */
export interface BrandInput {
  name?: string | undefined;
  is_default?: boolean | undefined;
  logo_url?: string | null | undefined;
  website?: string | null | undefined;
  address?: string | null | undefined;
  primary_color?: string | null | undefined;
  accent_color?: string | null | undefined;
  background_color?: string | null | undefined;
  text_color?: string | null | undefined;
  font?: BrandFont | undefined;
  footer_text?: string | null | undefined;
  social?: Partial<Record<keyof BrandSocial, string | null | undefined>> | undefined;
}

const noBrand = (id: number) => notFound(`No brand with id ${id}`);

/** One brand of the account (another account's is 404, as a missing one). */
export async function findBrand(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<Brand> {
  const { models } = ctx;
  const brand = await models.Brand.findOne({ where: { id, account_id: accountId }, ...(transaction ? { transaction } : {}) });
  if (!brand) throw noBrand(id);
  return brand;
}

/** Refuses (404) a brand id that is not one of the account's: what `ecardbrandid` and send overrides may name. */
export async function assertBrandOf(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number, transaction?: Transaction): Promise<void> {
  const { models } = ctx;
  const count = await models.Brand.count({ where: { id, account_id: accountId }, ...(transaction ? { transaction } : {}) });
  if (count === 0) throw noBrand(id);
}

export async function findBrandView(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number): Promise<BrandView> {
  return brandView(await findBrand(ctx, accountId, id));
}

export type BrandSort = 'createdat' | 'name' | 'id';
const SORT_COLUMNS: Record<BrandSort, string> = { createdat: 'created_at', name: 'name', id: 'id' };

export async function listBrands(
  ctx: Pick<ServiceContext, 'models'>,
  accountId: number,
  query: { page: number; perPage: number; sortBy: BrandSort; sortOrder: 'asc' | 'desc' },
): Promise<{ rows: BrandView[]; count: number }> {
  const { models } = ctx;
  const direction = query.sortOrder.toUpperCase();
  const sortKey = query.sortBy === 'name' ? models.sequelize.fn('LOWER', models.sequelize.col('name')) : SORT_COLUMNS[query.sortBy];
  const { rows, count } = await models.Brand.findAndCountAll({
    where: { account_id: accountId },
    order: [[sortKey, direction], ['id', direction]],
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  return { rows: rows.map(brandView), count };
}

function socialOf(input: BrandInput['social']): BrandSocial {
  return Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, input?.[n] ?? null])) as BrandSocial;
}

/** The columns for the fields sent (the default flag and `social` handled apart). */
function columnsOf(input: BrandInput): Partial<Brand> {
  const { is_default: _default, social, ...fields } = input;
  const columns = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Brand>;
  if (social !== undefined) columns.social = socialOf(social);
  return columns;
}

/** The account's default brand as it is made with the account: its name, nothing else set. */
export async function createDefaultBrand(ctx: Pick<ServiceContext, 'models'>, accountId: number, name: string, transaction: Transaction): Promise<Brand> {
  const { models } = ctx;
  const brand = await models.Brand.create({ account_id: accountId, default_for: accountId, name: name.slice(0, 200), social: socialOf(undefined) }, { transaction });
  return brand.reload({ transaction });
}

/**
 * Creates (id 0 or absent) or updates a brand, under the account's lock so two moves of the default cannot cross.
 * `is_default: true` moves the default here; `false` on the default is refused (422): make another the default.
 */
export async function saveBrand(ctx: ServiceContext, accountId: number, input: { id: number | undefined; brand: BrandInput }): Promise<BrandView> {
  const { models } = ctx;
  return accountTransaction(ctx, accountId, async (transaction) => {
    const columns = columnsOf(input.brand);
    let brand: Brand;
    if (!input.id) {
      requireFields({ 'brand.name': input.brand.name });
      brand = await models.Brand.create({ social: socialOf(undefined), ...columns, account_id: accountId, default_for: null, name: input.brand.name! }, { transaction });
      // Read back, so the fields left out show their database values (null, the default font).
      await brand.reload({ transaction });
    } else {
      brand = await findBrand(ctx, accountId, input.id, transaction);
      if (input.brand.is_default === false && brand.default_for !== null) {
        throw defaultBrand(`Brand ${brand.id} is the account's default: make another brand the default (is_default: true) instead`);
      }
      if (Object.keys(columns).length) await brand.update(columns, { transaction });
    }
    if (input.brand.is_default === true && brand.default_for === null) {
      await models.Brand.update({ default_for: null }, { where: { default_for: accountId, account_id: accountId }, transaction });
      await brand.update({ default_for: accountId }, { transaction });
    }
    return brandView(brand);
  });
}

/** Deletes a brand: never the default (422); one that eCards use needs its `brand_delete` token, and they fall back to the default. */
export async function deleteBrand(ctx: ServiceContext, accountId: number, id: number, token: string | undefined): Promise<number[]> {
  const { models } = ctx;
  const brand = await findBrand(ctx, accountId, id);
  if (brand.default_for !== null) throw defaultBrand(`Brand ${id} is the account's default: make another brand the default before deleting it`);
  const ecards = await models.Ecard.count({ where: { account_id: accountId, ecardbrandid: id } });
  const impact: Array<{ id: number; ecards: number }> = ecards ? [{ id, ecards }] : [];
  await deleteGatedByToken(
    { models, accountId, now: ctx.now(), noun: 'brand', purpose: 'brand_delete', impact, token },
    async (transaction) => {
      await models.Ecard.update({ ecardbrandid: null }, { where: { account_id: accountId, ecardbrandid: id }, transaction });
      await models.Brand.destroy({ where: { id, account_id: accountId }, transaction });
    },
  );
  return [id];
}

/**
 * resolveBrand's rule as the joins of a written-out read (the accept's, in one statement): `b` is the brand the card
 * names (the SQL expression `brandId`), `d` the account's default (`accountId`, a SQL expression too); the card
 * shows b, else d. Both are the account's own, as resolveBrand reads them (test/sends/rules-agree.test.ts runs both forms).
 */
export const brandJoinsSql = (brandId: string, accountId: string) => `LEFT JOIN brands b ON b.id = ${brandId} AND b.account_id = ${accountId}
LEFT JOIN brands d ON d.default_for = ${accountId} AND d.account_id = ${accountId}`;

/** The brand a card of the account shows: the one it names, else the default (null only for an account without brands). */
export async function resolveBrand(ctx: Pick<ServiceContext, 'models'>, accountId: number, brandId: number | null, transaction?: Transaction): Promise<BrandView | null> {
  const { models } = ctx;
  const where = brandId === null ? { account_id: accountId, default_for: accountId } : { account_id: accountId, [Op.or]: [{ id: brandId }, { default_for: accountId }] };
  const found = await models.Brand.findAll({ where, ...(transaction ? { transaction } : {}) });
  const brand = found.find((b) => b.id === brandId) ?? found.find((b) => b.default_for !== null);
  return brand ? brandView(brand) : null;
}
