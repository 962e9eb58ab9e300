// An account's seats in use: how many of its members are active (services/directory/seats.ts keeps it so).
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineMemberSeats(sequelize: Sequelize) {
  class MemberSeats extends Model<InferAttributes<MemberSeats>, InferCreationAttributes<MemberSeats>> {
    declare account_id: number;
    declare used: number;
  }
  MemberSeats.init(
    {
      account_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      used: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'member_seats', modelName: 'MemberSeats', timestamps: false },
  );
  return MemberSeats;
}

export type MemberSeatsModel = ReturnType<typeof defineMemberSeats>;
export type MemberSeats = InstanceType<MemberSeatsModel>;
