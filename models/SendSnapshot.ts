// What a send showed when it was accepted (the eCard's texts, artwork and envelope), so its email and share page
// keep working, unchanged, after the design is edited or deleted.
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineSendSnapshot(sequelize: Sequelize) {
  class SendSnapshot extends Model<InferAttributes<SendSnapshot>, InferCreationAttributes<SendSnapshot>> {
    /** The send's row id. */
    declare send_id: number;
    /** JSON text of the design (see services/sends/snapshot.ts). */
    declare design: string;
  }
  SendSnapshot.init(
    {
      send_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
      design: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'send_snapshots', modelName: 'SendSnapshot', timestamps: false },
  );
  return SendSnapshot;
}

export type SendSnapshotModel = ReturnType<typeof defineSendSnapshot>;
export type SendSnapshot = InstanceType<SendSnapshotModel>;
