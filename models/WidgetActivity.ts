// What a public widget records about its visitors: daily counters (no IPs), the abuse log (no personal data),
// per-IP send windows (the IP hashed) and sender verification codes (hashed, pruned after their limit window).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

/** What a widget counts per UTC day: `view`, `form_open`, `send:<share mode>` (emails for `send:email`), `silent`. */
export type WidgetCounterKind = string;

/** Why a widget refused or silently dropped a submission (the owner's abuse log). */
export type WidgetAbuseKind = 'honeypot' | 'too_fast' | 'ip_limit' | 'daily_cap' | 'domain' | 'verify_ip_limit' | 'verify_email_limit';

export function defineWidgetActivity(sequelize: Sequelize) {
  class WidgetCounter extends Model<InferAttributes<WidgetCounter>, InferCreationAttributes<WidgetCounter>> {
    declare widget_id: number;
    /** YYYY-MM-DD (UTC). */
    declare day: string;
    declare kind: WidgetCounterKind;
    declare account_id: number;
    declare count: CreationOptional<number>;
  }
  WidgetCounter.init(
    {
      widget_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      day: { type: DataTypes.CHAR(10), allowNull: false, primaryKey: true },
      kind: { type: DataTypes.STRING(40), allowNull: false, primaryKey: true },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'widget_counters', modelName: 'WidgetCounter', timestamps: false },
  );

  class WidgetAbuseEvent extends Model<InferAttributes<WidgetAbuseEvent>, InferCreationAttributes<WidgetAbuseEvent>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare widget_id: number;
    declare kind: WidgetAbuseKind;
    declare created_at: Date;
  }
  WidgetAbuseEvent.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      widget_id: { type: DataTypes.INTEGER, allowNull: false },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'widget_abuse_events', modelName: 'WidgetAbuseEvent', timestamps: false },
  );

  class WidgetSendWindow extends Model<InferAttributes<WidgetSendWindow>, InferCreationAttributes<WidgetSendWindow>> {
    declare widget_id: number;
    /** SHA-256 of the client IP with the widget's id (never the IP itself). */
    declare ip_hash: string;
    /** The start of the 10-minute window. */
    declare window_start: Date;
    declare emails: CreationOptional<number>;
  }
  WidgetSendWindow.init(
    {
      widget_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      ip_hash: { type: DataTypes.CHAR(64), allowNull: false, primaryKey: true },
      window_start: { type: DataTypes.DATE(3), allowNull: false, primaryKey: true },
      emails: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { sequelize, tableName: 'widget_send_windows', modelName: 'WidgetSendWindow', timestamps: false },
  );

  class WidgetVerification extends Model<InferAttributes<WidgetVerification>, InferCreationAttributes<WidgetVerification>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare widget_id: number;
    /** Lower-cased. */
    declare email: string;
    declare ip_hash: string;
    /** SHA-256 of the code with the row's salt; null when no code was mailed (a suppressed address: answered alike). */
    declare code_hash: string | null;
    declare tries: CreationOptional<number>;
    declare expires_at: Date;
    declare created_at: Date;
  }
  WidgetVerification.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      widget_id: { type: DataTypes.INTEGER, allowNull: false },
      email: { type: DataTypes.STRING(254), allowNull: false },
      ip_hash: { type: DataTypes.CHAR(64), allowNull: false },
      code_hash: { type: DataTypes.CHAR(64), allowNull: true },
      tries: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      expires_at: { type: DataTypes.DATE(3), allowNull: false },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'widget_verifications', modelName: 'WidgetVerification', timestamps: false },
  );

  return { WidgetCounter, WidgetAbuseEvent, WidgetSendWindow, WidgetVerification };
}

type Defined = ReturnType<typeof defineWidgetActivity>;
export type WidgetCounter = InstanceType<Defined['WidgetCounter']>;
export type WidgetAbuseEvent = InstanceType<Defined['WidgetAbuseEvent']>;
export type WidgetSendWindow = InstanceType<Defined['WidgetSendWindow']>;
export type WidgetVerification = InstanceType<Defined['WidgetVerification']>;
