// An Idempotency-Key of a send-ecard request per account: the request's hash and the send it made (replayed, not repeated).
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineIdempotencyKey(sequelize: Sequelize) {
  class IdempotencyKey extends Model<InferAttributes<IdempotencyKey>, InferCreationAttributes<IdempotencyKey>> {
    declare account_id: number;
    declare idem_key: string;
    declare request_hash: string;
    declare send_id: number;
    declare created_at: Date;
  }
  IdempotencyKey.init(
    {
      account_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      idem_key: { type: DataTypes.STRING(255).BINARY, allowNull: false, primaryKey: true },
      request_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      send_id: { type: DataTypes.INTEGER, allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'idempotency_keys', modelName: 'IdempotencyKey', timestamps: false },
  );
  return IdempotencyKey;
}

export type IdempotencyKeyModel = ReturnType<typeof defineIdempotencyKey>;
export type IdempotencyKey = InstanceType<IdempotencyKeyModel>;
