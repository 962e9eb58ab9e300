// The one-click unsubscribe link of an address, per account: bulk emails carry it; using it suppresses the address.
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineUnsubscribeLink(sequelize: Sequelize) {
  class UnsubscribeLink extends Model<InferAttributes<UnsubscribeLink>, InferCreationAttributes<UnsubscribeLink>> {
    /** At least 128 random bits (the link's path). */
    declare token: string;
    declare account_id: number;
    declare email: string;
    declare created_at: Date;
  }
  UnsubscribeLink.init(
    {
      token: { type: DataTypes.STRING(32).BINARY, primaryKey: true, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'unsubscribe_links', modelName: 'UnsubscribeLink', timestamps: false },
  );
  return UnsubscribeLink;
}

export type UnsubscribeLinkModel = ReturnType<typeof defineUnsubscribeLink>;
export type UnsubscribeLink = InstanceType<UnsubscribeLinkModel>;
