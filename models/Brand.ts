// A brand: the look and the sender's details an account's cards and emails carry. One per account is its default,
// held as `default_for` = the account id (NULL otherwise) under a unique index, so a second default cannot exist.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const BRAND_FONTS = ['system', 'humanist', 'serif', 'mono'] as const;
export type BrandFont = (typeof BRAND_FONTS)[number];
export const SOCIAL_NETWORKS = ['twitter', 'facebook', 'instagram', 'linkedin', 'youtube'] as const;
export type BrandSocial = Record<(typeof SOCIAL_NETWORKS)[number], string | null>;

/** The stored `social` column (JSON text) as the model reads it: every network, null where none is set. */
export function brandSocialOf(raw: unknown): BrandSocial {
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw ?? {}) as Partial<BrandSocial>;
  return Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, parsed[n] ?? null])) as BrandSocial;
}

export function defineBrand(sequelize: Sequelize) {
  class Brand extends Model<InferAttributes<Brand>, InferCreationAttributes<Brand>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare default_for: number | null;
    declare name: string;
    declare logo_url: string | null;
    declare website: string | null;
    declare address: string | null;
    declare primary_color: string | null;
    declare accent_color: string | null;
    declare background_color: string | null;
    declare text_color: string | null;
    declare font: CreationOptional<BrandFont>;
    declare footer_text: string | null;
    declare social: BrandSocial;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  const text = (length?: number) => ({ type: length ? DataTypes.STRING(length) : DataTypes.TEXT, allowNull: true });
  Brand.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      default_for: { type: DataTypes.INTEGER, allowNull: true },
      name: { type: DataTypes.STRING(200), allowNull: false },
      logo_url: text(2048),
      website: text(2048),
      address: text(1000),
      primary_color: text(7),
      accent_color: text(7),
      background_color: text(7),
      text_color: text(7),
      font: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'system' },
      footer_text: text(1000),
      social: {
        type: DataTypes.TEXT,
        allowNull: false,
        get(this: Brand) {
          return brandSocialOf(this.getDataValue('social'));
        },
        set(this: Brand, value: BrandSocial) {
          this.setDataValue('social', JSON.stringify(value) as unknown as BrandSocial);
        },
      },
      ...timestamps(),
    },
    { sequelize, tableName: 'brands', modelName: 'Brand' },
  );
  return Brand;
}

export type BrandModel = ReturnType<typeof defineBrand>;
export type Brand = InstanceType<BrandModel>;
