// Send designs stored once per distinct content: a design (the JSON text of services/sends/accept/snapshot.ts) is keyed by
// its SHA-256, and each send refers to one. Sends from before were moved here by the migration that made this table.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineSendDesigns(sequelize: Sequelize) {
  class SendDesign extends Model<InferAttributes<SendDesign>, InferCreationAttributes<SendDesign>> {
    declare id: CreationOptional<number>;
    /** Hex SHA-256 of `design` (unique). */
    declare sha256: string;
    declare design: string;
  }
  SendDesign.init(
    {
      id: idColumn(),
      sha256: { type: DataTypes.CHAR(64).BINARY, allowNull: false },
      design: { type: DataTypes.TEXT, allowNull: false },
    },
    { sequelize, tableName: 'send_designs', modelName: 'SendDesign', timestamps: false },
  );

  /** A send's design. */
  class SendDesignRef extends Model<InferAttributes<SendDesignRef>, InferCreationAttributes<SendDesignRef>> {
    declare send_id: number;
    declare design_id: number;
  }
  SendDesignRef.init(
    {
      send_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false },
      design_id: { type: DataTypes.INTEGER, allowNull: false },
    },
    { sequelize, tableName: 'send_design_refs', modelName: 'SendDesignRef', timestamps: false },
  );
  return { SendDesign, SendDesignRef };
}

type SendDesignModels = ReturnType<typeof defineSendDesigns>;
export type SendDesign = InstanceType<SendDesignModels['SendDesign']>;
export type SendDesignRef = InstanceType<SendDesignModels['SendDesignRef']>;
