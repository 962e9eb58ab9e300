// One recipient of a send: the card rendered for them, and the claim written before their email goes to SMTP.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export const RECIPIENT_STATUSES = ['pending', 'sent', 'failed', 'canceled'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** What came back after the hand-off: a permanent (5.x.x) or temporary (4.x.x) DSN, or a complaint (ARF). */
export const BOUNCE_KINDS = ['soft', 'hard', 'complaint'] as const;
export type BounceKind = (typeof BOUNCE_KINDS)[number];

export function defineSendRecipient(sequelize: Sequelize) {
  class SendRecipient extends Model<InferAttributes<SendRecipient>, InferCreationAttributes<SendRecipient>> {
    declare id: CreationOptional<number>;
    declare send_id: number;
    declare position: number;
    declare recipient_name: string;
    declare recipient_email: string | null;
    /** The id of this recipient's own page, `/e/<page_id>` (null on rows made before recipients had pages). */
    declare page_id: CreationOptional<string | null>;
    /** When this recipient first opened the card (the open action, never a GET). */
    declare opened_at: CreationOptional<Date | null>;
    /** When a bounce or complaint came back for this recipient's email (its status stays `sent`). */
    declare bounced_at: CreationOptional<Date | null>;
    /** The VERP token of this recipient's envelope sender (bounces+<token>@BOUNCE_DOMAIN); null without BOUNCE_DOMAIN. */
    declare bounce_token: CreationOptional<string | null>;
    /** The strongest report that came back, parsed (never the raw report): hard, soft or complaint. */
    declare bounce_kind: CreationOptional<BounceKind | null>;
    /** Its enhanced status code (`5.1.1`), when it had one. */
    declare bounce_status: CreationOptional<string | null>;
    /** Its diagnostic (a DSN's Diagnostic-Code, a complaint's Feedback-Type), shortened. */
    declare bounce_diagnostic: CreationOptional<string | null>;
    /** Thank-yous sent from this recipient's page (at most MAX_THANKS; raised by one conditional UPDATE). */
    declare thanks_count: CreationOptional<number>;
    declare status: CreationOptional<RecipientStatus>;
    declare rendered_subject: CreationOptional<string | null>;
    declare rendered_header: CreationOptional<string | null>;
    declare rendered_html: CreationOptional<string | null>;
    declare message_id: CreationOptional<string | null>;
    declare claimed_at: CreationOptional<Date | null>;
    /** Bulk sends: the token of the micro-batch claim that took this recipient. */
    declare claim_token: CreationOptional<string | null>;
    declare finished_at: CreationOptional<Date | null>;
    declare error: CreationOptional<string | null>;
    /** A bulk recipient's outcome event still to announce (services/sends/delivery/outcome-marks.ts); null once written or when none is due. */
    declare announce_event: CreationOptional<string | null>;
  }
  SendRecipient.init(
    {
      id: idColumn(),
      send_id: { type: DataTypes.INTEGER, allowNull: false },
      position: { type: DataTypes.INTEGER, allowNull: false },
      recipient_name: { type: DataTypes.STRING(200), allowNull: false },
      recipient_email: { type: DataTypes.STRING(254), allowNull: true },
      page_id: { type: DataTypes.STRING(32).BINARY, allowNull: true },
      opened_at: { type: DataTypes.DATE(3), allowNull: true },
      bounced_at: { type: DataTypes.DATE(3), allowNull: true },
      bounce_token: { type: DataTypes.CHAR(32).BINARY, allowNull: true },
      bounce_kind: { type: DataTypes.STRING(10), allowNull: true },
      bounce_status: { type: DataTypes.STRING(16), allowNull: true },
      bounce_diagnostic: { type: DataTypes.STRING(300), allowNull: true },
      thanks_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
      rendered_subject: { type: DataTypes.STRING(1000), allowNull: true },
      rendered_header: { type: DataTypes.STRING(1000), allowNull: true },
      rendered_html: { type: DataTypes.TEXT, allowNull: true },
      message_id: { type: DataTypes.STRING(250), allowNull: true },
      claimed_at: { type: DataTypes.DATE(3), allowNull: true },
      claim_token: { type: DataTypes.CHAR(36).BINARY, allowNull: true },
      finished_at: { type: DataTypes.DATE(3), allowNull: true },
      error: { type: DataTypes.STRING(1000), allowNull: true },
      announce_event: { type: DataTypes.STRING(32), allowNull: true },
    },
    { sequelize, tableName: 'send_recipients', modelName: 'SendRecipient', timestamps: false },
  );
  return SendRecipient;
}

export type SendRecipientModel = ReturnType<typeof defineSendRecipient>;
export type SendRecipient = InstanceType<SendRecipientModel>;
