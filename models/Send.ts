// One send of an eCard (email now, scheduled, or a share link) with its state; recipients hang off it.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, reservedCents, timestamps } from './columns.ts';

export type SendMode = 'email' | 'schedule' | 'share';
/** Where a send came from: the send-ecard call, a campaign, an automation (`origin_id` names which) or a public widget. */
export type SendOrigin = 'single' | 'campaign' | 'automation' | 'widget';
/** What a visitor chose in the widget: an email, or a share link for one of the share buttons (`ecard_shared.type`). */
export const SHARE_TYPES = ['email', 'ecard_copy_link', 'facebook', 'twitter', 'linkedin', 'whatsapp', 'sms', 'ecard_viewprint', 'ecard_download'] as const;
export type ShareType = (typeof SHARE_TYPES)[number];
export type SendStatus = 'scheduled' | 'pending' | 'sent' | 'failed' | 'canceled';

export function defineSend(sequelize: Sequelize) {
  class Send extends Model<InferAttributes<Send>, InferCreationAttributes<Send>> {
    declare id: CreationOptional<number>;
    declare send_id: string;
    declare account_id: number;
    declare ecard_id: number;
    declare widget_id: number;
    declare mode: SendMode;
    declare status: SendStatus;
    declare sandbox: boolean;
    declare sender_name: string;
    declare sender_email: string;
    declare personal_message: string | null;
    declare locale: string;
    /** JSON text of the merge tags (an object of strings), or null. */
    declare merge_tags: string | null;
    declare override_props: string | null;
    declare send_at: Date;
    declare stat_vanity_id: string;
    declare opened_at: CreationOptional<Date | null>;
    /** send-ecard's `opennotification`: the sender is emailed when each recipient first opens the card. */
    declare notify_on_open: CreationOptional<boolean>;
    declare quota_month: string | null;
    declare quota_count: number;
    declare emails_sent: CreationOptional<number>;
    declare error: CreationOptional<string | null>;
    declare workflow_started: CreationOptional<boolean>;
    declare origin: CreationOptional<SendOrigin>;
    declare origin_id: CreationOptional<number | null>;
    /** A widget send's share mode (null for API, campaign and automation sends). */
    declare share_type: CreationOptional<ShareType | null>;
    /** The visitor agreed to hear from the widget's owner (widget sends; false otherwise). */
    declare opted_in: CreationOptional<boolean>;
    /** The directory member a widget sender proved to be (the directory rule). */
    declare sender_member_id: CreationOptional<number | null>;
    /** A send-ecard gift: its product and face value per recipient; what is still reserved against the spend rules. */
    declare gift_product_id: CreationOptional<string | null>;
    declare gift_amount_cents: CreationOptional<number | null>;
    declare gift_reserved_cents: CreationOptional<number>;
    declare gift_spend_day: CreationOptional<string | null>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Send.init(
    {
      id: idColumn(),
      send_id: { type: DataTypes.CHAR(36).BINARY, allowNull: false },
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      ecard_id: { type: DataTypes.INTEGER, allowNull: false },
      widget_id: { type: DataTypes.INTEGER, allowNull: false },
      mode: { type: DataTypes.STRING(10), allowNull: false },
      status: { type: DataTypes.STRING(10), allowNull: false },
      sandbox: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      sender_name: { type: DataTypes.STRING(200), allowNull: false },
      sender_email: { type: DataTypes.STRING(254), allowNull: false },
      personal_message: { type: DataTypes.TEXT, allowNull: true },
      locale: { type: DataTypes.STRING(16), allowNull: false, defaultValue: 'en' },
      merge_tags: { type: DataTypes.TEXT, allowNull: true },
      override_props: { type: DataTypes.TEXT, allowNull: true },
      send_at: { type: DataTypes.DATE(3), allowNull: false },
      stat_vanity_id: { type: DataTypes.STRING(32).BINARY, allowNull: false },
      opened_at: { type: DataTypes.DATE(3), allowNull: true },
      notify_on_open: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      quota_month: { type: DataTypes.CHAR(7), allowNull: true },
      quota_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      emails_sent: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      error: { type: DataTypes.STRING(1000), allowNull: true },
      workflow_started: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      origin: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'single' },
      origin_id: { type: DataTypes.INTEGER, allowNull: true },
      share_type: { type: DataTypes.STRING(20), allowNull: true },
      opted_in: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      sender_member_id: { type: DataTypes.INTEGER, allowNull: true },
      gift_product_id: { type: DataTypes.STRING(200), allowNull: true },
      gift_amount_cents: { type: DataTypes.INTEGER, allowNull: true },
      gift_reserved_cents: reservedCents(),
      gift_spend_day: { type: DataTypes.CHAR(10), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'sends', modelName: 'Send' },
  );
  return Send;
}

export type SendModel = ReturnType<typeof defineSend>;
export type Send = InstanceType<SendModel>;
