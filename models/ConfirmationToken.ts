// A one-time confirmation token (stored only as a hash) for one purpose and, where it applies, one resource.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export const TOKEN_PURPOSES = ['widget_delete', 'widget_dir_sender_off', 'ecard_delete_in_use', 'gc_campaign_send', 'gc_automation_enable', 'brand_delete'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

export function defineConfirmationToken(sequelize: Sequelize) {
  class ConfirmationToken extends Model<InferAttributes<ConfirmationToken>, InferCreationAttributes<ConfirmationToken>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare purpose: TokenPurpose;
    declare resource_id: string | null;
    declare token_hash: string;
    declare expires_at: Date;
    declare used_at: Date | null;
    declare created_at: CreationOptional<Date>;
  }
  ConfirmationToken.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      purpose: { type: DataTypes.STRING(40), allowNull: false },
      resource_id: { type: DataTypes.STRING(64), allowNull: true },
      token_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      expires_at: { type: DataTypes.DATE(3), allowNull: false },
      used_at: { type: DataTypes.DATE(3), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'confirmation_tokens', modelName: 'ConfirmationToken', updatedAt: false },
  );
  return ConfirmationToken;
}

export type ConfirmationTokenModel = ReturnType<typeof defineConfirmationToken>;
export type ConfirmationToken = InstanceType<ConfirmationTokenModel>;
