// One event (or test) on its way to one endpoint: the delivery log's entry; its attempts hang off it.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export const DELIVERY_STATUSES = ['Pending', 'Retrying', 'Delivered', 'Failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type DeliveryTrigger = 'auto' | 'test';

export function defineWebhookDelivery(sequelize: Sequelize) {
  class WebhookDelivery extends Model<InferAttributes<WebhookDelivery>, InferCreationAttributes<WebhookDelivery>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare endpoint_id: number;
    declare outbox_id: number;
    declare event_id: string;
    declare event_type: string;
    declare trigger: DeliveryTrigger;
    declare status: DeliveryStatus;
    declare error: CreationOptional<string | null>;
    declare attempts: CreationOptional<number>;
    declare workflow_id: string;
    declare workflow_started: CreationOptional<boolean>;
    declare finished_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  WebhookDelivery.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      endpoint_id: { type: DataTypes.INTEGER, allowNull: false },
      outbox_id: { type: DataTypes.INTEGER, allowNull: false },
      event_id: { type: DataTypes.STRING(64).BINARY, allowNull: false },
      event_type: { type: DataTypes.STRING(64), allowNull: false },
      trigger: { type: DataTypes.STRING(10), allowNull: false },
      status: { type: DataTypes.STRING(12), allowNull: false },
      error: { type: DataTypes.STRING(500), allowNull: true },
      attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      workflow_id: { type: DataTypes.STRING(200), allowNull: false },
      workflow_started: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      finished_at: { type: DataTypes.DATE(3), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'webhook_deliveries', modelName: 'WebhookDelivery' },
  );
  return WebhookDelivery;
}

export type WebhookDeliveryModel = ReturnType<typeof defineWebhookDelivery>;
export type WebhookDelivery = InstanceType<WebhookDeliveryModel>;
