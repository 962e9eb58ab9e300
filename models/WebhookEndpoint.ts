// Where an account's webhooks go: its ecard_shared URL, or a subscription to one member-change event type.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export type EndpointKind = 'ecard_shared' | 'member_change';

export function defineWebhookEndpoint(sequelize: Sequelize) {
  class WebhookEndpoint extends Model<InferAttributes<WebhookEndpoint>, InferCreationAttributes<WebhookEndpoint>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare kind: EndpointKind;
    declare event_type: string | null;
    declare url: string;
    declare integration: boolean;
    declare consecutive_failures: CreationOptional<number>;
    declare paused_at: CreationOptional<Date | null>;
    declare removed_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  WebhookEndpoint.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(20), allowNull: false },
      event_type: { type: DataTypes.STRING(64), allowNull: true },
      url: { type: DataTypes.STRING(2048), allowNull: false },
      integration: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      consecutive_failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      paused_at: { type: DataTypes.DATE(3), allowNull: true },
      removed_at: { type: DataTypes.DATE(3), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'webhook_endpoints', modelName: 'WebhookEndpoint' },
  );
  return WebhookEndpoint;
}

export type WebhookEndpointModel = ReturnType<typeof defineWebhookEndpoint>;
export type WebhookEndpoint = InstanceType<WebhookEndpointModel>;
