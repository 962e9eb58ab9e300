// One HTTP request of a delivery (automatic, replay or test) and what came back.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export type AttemptTrigger = 'auto' | 'replay' | 'test';
export type AttemptOutcome = 'delivered' | 'failed' | 'gone' | 'stopped';

export function defineWebhookAttempt(sequelize: Sequelize) {
  class WebhookAttempt extends Model<InferAttributes<WebhookAttempt>, InferCreationAttributes<WebhookAttempt>> {
    declare id: CreationOptional<number>;
    declare delivery_id: number;
    declare attempt_key: string;
    declare trigger: AttemptTrigger;
    /** JSON text of the request headers sent. */
    declare request_headers: string;
    declare response_status: number | null;
    declare response_body: string | null;
    declare error: string | null;
    declare outcome: AttemptOutcome;
    declare retry_after_seconds: number | null;
    declare duration_ms: number;
    declare started_at: Date;
  }
  WebhookAttempt.init(
    {
      id: idColumn(),
      delivery_id: { type: DataTypes.INTEGER, allowNull: false },
      attempt_key: { type: DataTypes.STRING(250).BINARY, allowNull: false },
      trigger: { type: DataTypes.STRING(10), allowNull: false },
      request_headers: { type: DataTypes.TEXT, allowNull: false },
      response_status: { type: DataTypes.INTEGER, allowNull: true },
      response_body: { type: DataTypes.TEXT, allowNull: true },
      error: { type: DataTypes.STRING(500), allowNull: true },
      outcome: { type: DataTypes.STRING(12), allowNull: false },
      retry_after_seconds: { type: DataTypes.DOUBLE, allowNull: true },
      duration_ms: { type: DataTypes.INTEGER, allowNull: false },
      started_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'webhook_attempts', modelName: 'WebhookAttempt', timestamps: false },
  );
  return WebhookAttempt;
}

export type WebhookAttemptModel = ReturnType<typeof defineWebhookAttempt>;
export type WebhookAttempt = InstanceType<WebhookAttemptModel>;
