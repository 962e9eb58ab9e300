// A signed-in user's console session and the password attempts its throttle counts.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export type ConsoleMode = 'live' | 'sandbox';

export function defineConsoleModels(sequelize: Sequelize) {
  class ConsoleSession extends Model<InferAttributes<ConsoleSession>, InferCreationAttributes<ConsoleSession>> {
    declare id: CreationOptional<number>;
    declare id_hash: string;
    /**
     * The signed-in user's id (users.id). The column keeps its name from when only owners signed in: the users
     * table is the owners table renamed with the same ids, so renaming the column too would only rebuild the table.
     */
    declare owner_id: number;
    declare account_id: number;
    declare mode: CreationOptional<ConsoleMode>;
    declare csrf_secret: string;
    declare created_at: Date;
    declare last_seen_at: Date;
    declare step_up_at: CreationOptional<Date | null>;
    /** What the person's session list names it by (the session id itself is stored only as a hash). */
    declare public_id: string;
    /** Where and with what it was opened (sign-in). */
    declare ip: CreationOptional<string | null>;
    declare user_agent: CreationOptional<string | null>;
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
      public_id: { type: DataTypes.STRING(32), allowNull: false },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      user_agent: { type: DataTypes.STRING(255), allowNull: true },
    },
    { sequelize, tableName: 'console_sessions', modelName: 'ConsoleSession', timestamps: false },
  );

  /** One throttle counter: the attempts at a password (sign-in, step-up, password change) within its window. */
  class SignInSlot extends Model<InferAttributes<SignInSlot>, InferCreationAttributes<SignInSlot>> {
    /** `pair:<client IP> <email>` or `email:<email>`. */
    declare slot_key: string;
    declare attempts: number;
    declare window_start: Date;
  }
  SignInSlot.init(
    {
      slot_key: { type: DataTypes.STRING(320).BINARY, primaryKey: true, allowNull: false },
      attempts: { type: DataTypes.INTEGER, allowNull: false },
      window_start: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'console_sign_in_slots', modelName: 'SignInSlot', timestamps: false },
  );
  return { ConsoleSession, SignInSlot };
}

type ConsoleModels = ReturnType<typeof defineConsoleModels>;
export type ConsoleSession = InstanceType<ConsoleModels['ConsoleSession']>;
