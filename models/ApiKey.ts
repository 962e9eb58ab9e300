// An API key of one account, stored only as the SHA-256 of the key.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const AREAS = [
  'ecards', 'widgets', 'campaigns', 'automations', 'gift_cards', 'directory',
  'webhooks', 'sends', 'analytics', 'brands', 'media', 'settings',
] as const;
export type Area = (typeof AREAS)[number];
export type Level = 'none' | 'view' | 'manage';
export type Permissions = Record<Area, Level>;

export function defineApiKey(sequelize: Sequelize) {
  class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare name: string;
    declare key_hash: string;
    declare last4: string;
    declare full_access: boolean;
    declare permissions: Permissions;
    declare last_used_at: Date | null;
    declare revoked_at: Date | null;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  ApiKey.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '' },
      key_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      last4: { type: DataTypes.CHAR(4), allowNull: false },
      full_access: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      // Stored as JSON text so SQLite and MySQL read back the same map.
      permissions: {
        type: DataTypes.TEXT,
        allowNull: false,
        get(this: ApiKey) {
          // Partial instances (as in a static update) have no value to parse.
          const raw = this.getDataValue('permissions') as unknown;
          return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Permissions;
        },
        set(this: ApiKey, value: Permissions) {
          this.setDataValue('permissions', JSON.stringify(value) as unknown as Permissions);
        },
      },
      last_used_at: { type: DataTypes.DATE(3), allowNull: true },
      revoked_at: { type: DataTypes.DATE(3), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'api_keys', modelName: 'ApiKey' },
  );
  return ApiKey;
}

export type ApiKeyModel = ReturnType<typeof defineApiKey>;
export type ApiKey = InstanceType<ApiKeyModel>;
