// An account's webhook signing secret, and the previous one during the 24 hours after a rotation, each sealed
// (services/webhooks/secrets.ts; plaintext only in rows from before encryption at rest, until the next start).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { timestamps } from './columns.ts';

export function defineWebhookSecret(sequelize: Sequelize) {
  class WebhookSecret extends Model<InferAttributes<WebhookSecret>, InferCreationAttributes<WebhookSecret>> {
    declare account_id: number;
    declare secret: string;
    declare previous_secret: string | null;
    declare rotated_at: Date | null;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  WebhookSecret.init(
    {
      account_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      secret: { type: DataTypes.STRING(255).BINARY, allowNull: false },
      previous_secret: { type: DataTypes.STRING(255).BINARY, allowNull: true },
      rotated_at: { type: DataTypes.DATE(3), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'webhook_secrets', modelName: 'WebhookSecret' },
  );
  return WebhookSecret;
}

export type WebhookSecretModel = ReturnType<typeof defineWebhookSecret>;
export type WebhookSecret = InstanceType<WebhookSecretModel>;
