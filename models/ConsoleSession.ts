// A signed-in owner's console session and the failed sign-ins its throttle counts.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export type ConsoleMode = 'live' | 'sandbox';

export function defineConsoleModels(sequelize: Sequelize) {
  class ConsoleSession extends Model<InferAttributes<ConsoleSession>, InferCreationAttributes<ConsoleSession>> {
    declare id: CreationOptional<number>;
    declare id_hash: string;
    declare owner_id: number;
    declare account_id: number;
    declare mode: CreationOptional<ConsoleMode>;
    declare csrf_secret: string;
    declare created_at: Date;
    declare last_seen_at: Date;
    declare step_up_at: CreationOptional<Date | null>;
  }
  ConsoleSession.init(
    {
      id: idColumn(),
      id_hash: { type: DataTypes.CHAR(64), allowNull: false },
      owner_id: { type: DataTypes.INTEGER, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      mode: { type: DataTypes.STRING(8), allowNull: false, defaultValue: 'live' },
      csrf_secret: { type: DataTypes.CHAR(64), allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
      last_seen_at: { type: DataTypes.DATE(3), allowNull: false },
      step_up_at: { type: DataTypes.DATE(3), allowNull: true },
    },
    { sequelize, tableName: 'console_sessions', modelName: 'ConsoleSession', timestamps: false },
  );

  class SignInFailure extends Model<InferAttributes<SignInFailure>, InferCreationAttributes<SignInFailure>> {
    declare id: CreationOptional<number>;
    declare email: string;
    declare failed_at: Date;
  }
  SignInFailure.init(
    {
      id: idColumn(),
      email: { type: DataTypes.STRING(254), allowNull: false },
      failed_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'console_sign_in_failures', modelName: 'SignInFailure', timestamps: false },
  );
  return { ConsoleSession, SignInFailure };
}

type ConsoleModels = ReturnType<typeof defineConsoleModels>;
export type ConsoleSession = InstanceType<ConsoleModels['ConsoleSession']>;
