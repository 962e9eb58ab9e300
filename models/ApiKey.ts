// An API key of one account, stored only as the SHA-256 of the key.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const AREAS = [
  'ecards', 'widgets', 'campaigns', 'automations', 'gift_cards', 'directory',
  'webhooks', 'sends', 'analytics', 'brands', 'media', 'settings', 'team', 'audit',
] as const;
export type Area = (typeof AREAS)[number];
export type Level = 'none' | 'view' | 'manage';
export type Permissions = Record<Area, Level>;

/** Areas a key may only read: a key never mints a person nor writes the audit log (decisions.md "Teams"). */
export const VIEW_ONLY_AREAS = ['team', 'audit'] as const satisfies readonly Area[];

/** The most a key may have of an area: `manage`, or `view` where the area is read-only for keys. */
export const topLevel = (area: Area): Level => ((VIEW_ONLY_AREAS as readonly Area[]).includes(area) ? 'view' : 'manage');

/** The levels a key may be given of an area, lowest first. */
export const levelsOf = (area: Area): readonly Level[] => (topLevel(area) === 'view' ? ['none', 'view'] : ['none', 'view', 'manage']);

/**
 * A stored map with every area: an area added after the key was made (`team`, `audit`) reads `none`, or its top
 * level for a full-access key, which keeps meaning every area.
 */
export function completePermissions(stored: Partial<Permissions>, fullAccess: boolean): Permissions {
  return Object.fromEntries(AREAS.map((area) => [area, stored[area] ?? (fullAccess ? topLevel(area) : 'none')])) as Permissions;
}

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
          const stored = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Partial<Permissions> | undefined;
          return stored == null ? stored : completePermissions(stored, Boolean(this.getDataValue('full_access')));
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
