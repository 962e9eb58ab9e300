// A person who signs in to the console: global (one row per email), in accounts through memberships (./Membership.ts).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export function defineUser(sequelize: Sequelize) {
  class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
    declare id: CreationOptional<number>;
    /** Lower-cased. */
    declare email: string;
    declare name: CreationOptional<string>;
    /** scrypt$N$r$p$salt$hash; null until a password is set. */
    declare password_hash: string | null;
    /** Sealed (AAD `user:<id>`) by the TOTP work; null while TOTP is off. */
    declare totp_secret: CreationOptional<string | null>;
    declare totp_last_step: CreationOptional<number | null>;
    /** The live account sign-in opens (else the oldest membership's). */
    declare last_account_id: CreationOptional<number | null>;
    declare last_sign_in_at: CreationOptional<Date | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  User.init(
    {
      id: idColumn(),
      email: { type: DataTypes.STRING(254), allowNull: false },
      name: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '' },
      password_hash: { type: DataTypes.STRING(255), allowNull: true },
      totp_secret: { type: DataTypes.TEXT, allowNull: true },
      totp_last_step: {
        type: DataTypes.BIGINT,
        allowNull: true,
        // mysql2 answers BIGINT as a string.
        get(this: User) {
          const value = this.getDataValue('totp_last_step') as number | string | null;
          return value === null || value === undefined ? null : Number(value);
        },
      },
      last_account_id: { type: DataTypes.INTEGER, allowNull: true },
      last_sign_in_at: { type: DataTypes.DATE(3), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'users', modelName: 'User' },
  );
  return User;
}

export type UserModel = ReturnType<typeof defineUser>;
export type User = InstanceType<UserModel>;
