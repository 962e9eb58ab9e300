// One line of an account's audit log: who did what to which thing, from where, and whether it was allowed. Never updated.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export const ACTOR_TYPES = ['user', 'api_key', 'operator', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
export const AUDIT_SURFACES = ['console', 'api', 'cli', 'worker'] as const;
export type AuditSurface = (typeof AUDIT_SURFACES)[number];
export type AuditOutcome = 'success' | 'denied';

export function defineAuditEvent(sequelize: Sequelize) {
  class AuditEvent extends Model<InferAttributes<AuditEvent>, InferCreationAttributes<AuditEvent>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare occurred_at: Date;
    declare actor_type: ActorType;
    declare actor_user_id: number | null;
    declare actor_key_id: number | null;
    declare actor_label: string;
    /** `area.verb`, e.g. `widgets.update`. */
    declare action: string;
    declare target_type: string | null;
    declare target_id: string | null;
    declare outcome: AuditOutcome;
    declare ip: string | null;
    declare user_agent: string | null;
    declare request_id: string | null;
    declare surface: AuditSurface;
    /** JSON of the action's allow-listed fields, or null. */
    declare details: string | null;
  }
  AuditEvent.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      occurred_at: { type: DataTypes.DATE(3), allowNull: false },
      actor_type: { type: DataTypes.STRING(16), allowNull: false },
      actor_user_id: { type: DataTypes.INTEGER, allowNull: true },
      actor_key_id: { type: DataTypes.INTEGER, allowNull: true },
      actor_label: { type: DataTypes.STRING(400), allowNull: false },
      action: { type: DataTypes.STRING(64), allowNull: false },
      target_type: { type: DataTypes.STRING(32), allowNull: true },
      target_id: { type: DataTypes.STRING(64), allowNull: true },
      outcome: { type: DataTypes.STRING(8), allowNull: false },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      user_agent: { type: DataTypes.STRING(255), allowNull: true },
      request_id: { type: DataTypes.STRING(64), allowNull: true },
      surface: { type: DataTypes.STRING(8), allowNull: false },
      details: { type: DataTypes.TEXT, allowNull: true },
    },
    { sequelize, tableName: 'audit_events', modelName: 'AuditEvent', timestamps: false },
  );
  return AuditEvent;
}

export type AuditEventModel = ReturnType<typeof defineAuditEvent>;
export type AuditEvent = InstanceType<AuditEventModel>;
