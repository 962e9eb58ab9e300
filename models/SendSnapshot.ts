// A send's design in the form from before designs were stored once per content (models/SendDesign.ts). Read by
// nothing: the migration that brought send_designs moved every row out (its `down` moves them back); the table stays
// until a migration drops it, and the isolation and secrecy tests still look into it.
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineSendSnapshot(sequelize: Sequelize) {
  class SendSnapshot extends Model<InferAttributes<SendSnapshot>, InferCreationAttributes<SendSnapshot>> {
    /** The send's row id. */
    declare send_id: number;
    /** JSON text of the design (see services/sends/accept/snapshot.ts). */
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
