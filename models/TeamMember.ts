// A member of an account's directory (the people automations and directory-gated widgets know about).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export function defineTeamMember(sequelize: Sequelize) {
  class TeamMember extends Model<InferAttributes<TeamMember>, InferCreationAttributes<TeamMember>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare email: string;
    declare employee_id: string | null;
    declare first_name: string | null;
    declare last_name: string | null;
    declare job_position: string | null;
    declare date_of_birth: string | null;
    declare hire_date: string | null;
    declare profile_image_url: string | null;
    /** An IANA zone name (canonical), or null: the account's default zone applies. */
    declare timezone: string | null;
    declare manager_id: number | null;
    declare pending_manager_email: string | null;
    declare disabled: CreationOptional<boolean>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  TeamMember.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      email: { type: DataTypes.STRING(254).BINARY, allowNull: false },
      employee_id: { type: DataTypes.STRING(100).BINARY, allowNull: true },
      first_name: { type: DataTypes.STRING(100), allowNull: true },
      last_name: { type: DataTypes.STRING(100), allowNull: true },
      job_position: { type: DataTypes.STRING(200), allowNull: true },
      date_of_birth: { type: DataTypes.DATEONLY, allowNull: true },
      hire_date: { type: DataTypes.DATEONLY, allowNull: true },
      profile_image_url: { type: DataTypes.STRING(2048), allowNull: true },
      timezone: { type: DataTypes.STRING(64), allowNull: true },
      manager_id: { type: DataTypes.INTEGER, allowNull: true },
      pending_manager_email: { type: DataTypes.STRING(254).BINARY, allowNull: true },
      disabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    { sequelize, tableName: 'team_members', modelName: 'TeamMember' },
  );
  return TeamMember;
}

export type TeamMemberModel = ReturnType<typeof defineTeamMember>;
export type TeamMember = InstanceType<TeamMemberModel>;
