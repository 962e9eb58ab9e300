// A widget: a container of eCards with display and behaviour configuration (`wconfig`).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: true });

/** The stored `merge_tag_defaults` column (JSON text or null) as the model reads it: tag → text, empty when none. */
export function mergeTagDefaultsOf(raw: unknown): Record<string, string> {
  if (raw === null || raw === undefined) return {};
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, string>;
}

export function defineWidget(sequelize: Sequelize) {
  class Widget extends Model<InferAttributes<Widget>, InferCreationAttributes<Widget>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare vanity_id: string;
    declare name: string;
    declare wconfig: Record<string, unknown>;
    declare dir_sender_must_be_in_directory: CreationOptional<boolean>;
    declare is_campaign: CreationOptional<boolean>;
    // The widget's own details: they fill what the eCard's brand leaves empty (the social links by the anchor's names).
    declare logo: CreationOptional<string | null>;
    declare website: CreationOptional<string | null>;
    declare address: CreationOptional<string | null>;
    declare stwitter: CreationOptional<string | null>;
    declare sfacebook: CreationOptional<string | null>;
    declare sinstagram: CreationOptional<string | null>;
    declare slinkedin: CreationOptional<string | null>;
    declare syoutube: CreationOptional<string | null>;
    /** Tag → the text an empty merge tag of its eCards takes (stored as JSON text; null reads as none). */
    declare merge_tag_defaults: CreationOptional<Record<string, string>>;
    /** Stored for the embeddable widget (share links from the widget); off for widgets made before it. */
    declare public_share_enabled: CreationOptional<boolean>;
    // The widget page's style (the anchor's names): colours, font sizes in px, and the owner's CSS (sanitized at save).
    declare stylebg: CreationOptional<string | null>;
    declare stylebghead: CreationOptional<string | null>;
    declare stylebgbody: CreationOptional<string | null>;
    declare styletext: CreationOptional<string | null>;
    declare styleheadtext: CreationOptional<string | null>;
    declare stylelink: CreationOptional<string | null>;
    declare style_fontsize: CreationOptional<number | null>;
    declare style_fontsize_header: CreationOptional<number | null>;
    declare widgetcss: CreationOptional<string | null>;
    // Sender rules of the public widget.
    declare email_verification_required: CreationOptional<boolean>;
    /** Comma or newline separated domains; empty or null allows any. */
    declare sender_email_domains_whitelist: CreationOptional<string | null>;
    declare recipient_email_domains_whitelist: CreationOptional<string | null>;
    /** How long a proven sender's widget session lasts. */
    declare dir_session_timeout_minutes: CreationOptional<number>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Widget.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      vanity_id: { type: DataTypes.STRING(32).BINARY, allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      wconfig: {
        type: DataTypes.TEXT,
        allowNull: false,
        get(this: Widget) {
          const raw = this.getDataValue('wconfig') as unknown;
          return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
        },
        set(this: Widget, value: Record<string, unknown>) {
          this.setDataValue('wconfig', JSON.stringify(value) as unknown as Record<string, unknown>);
        },
      },
      dir_sender_must_be_in_directory: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      is_campaign: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      logo: text(2048),
      website: text(2048),
      address: text(1000),
      stwitter: text(2048),
      sfacebook: text(2048),
      sinstagram: text(2048),
      slinkedin: text(2048),
      syoutube: text(2048),
      merge_tag_defaults: {
        type: DataTypes.TEXT,
        allowNull: true,
        get(this: Widget) {
          return mergeTagDefaultsOf(this.getDataValue('merge_tag_defaults'));
        },
        set(this: Widget, value: Record<string, string> | null) {
          this.setDataValue('merge_tag_defaults', (value === null ? null : JSON.stringify(value)) as unknown as Record<string, string>);
        },
      },
      public_share_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      stylebg: text(64),
      stylebghead: text(64),
      stylebgbody: text(64),
      styletext: text(64),
      styleheadtext: text(64),
      stylelink: text(64),
      style_fontsize: { type: DataTypes.INTEGER, allowNull: true },
      style_fontsize_header: { type: DataTypes.INTEGER, allowNull: true },
      widgetcss: { type: DataTypes.TEXT, allowNull: true },
      email_verification_required: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      sender_email_domains_whitelist: { type: DataTypes.TEXT, allowNull: true },
      recipient_email_domains_whitelist: { type: DataTypes.TEXT, allowNull: true },
      dir_session_timeout_minutes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 30 },
      ...timestamps(),
    },
    { sequelize, tableName: 'widgets', modelName: 'Widget' },
  );
  return Widget;
}

export type WidgetModel = ReturnType<typeof defineWidget>;
export type Widget = InstanceType<WidgetModel>;
