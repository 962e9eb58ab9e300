// A service email waiting for the mail transport (owner notices, read receipts and thank-yous to senders), or
// done with: `sent_at` is when it left the queue, handed to the transport or skipped (`skip_reason` says why);
// its bodies (text, and HTML where there is one) are cleared then.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineMailMessage(sequelize: Sequelize) {
  class MailMessage extends Model<InferAttributes<MailMessage>, InferCreationAttributes<MailMessage>> {
    declare id: CreationOptional<number>;
    declare account_id: number | null;
    declare kind: string;
    declare recipient: string;
    declare reply_to: CreationOptional<string | null>;
    declare subject: string;
    declare text_body: string;
    /** The HTML part, where there is one ("Send me a test": an eCard's email); null for plain-text notices. */
    declare html_body: CreationOptional<string | null>;
    declare sent_at: CreationOptional<Date | null>;
    /** Why it was never handed to the transport (`suppressed`: the address is on its account's suppression list). */
    declare skip_reason: CreationOptional<string | null>;
    declare created_at: CreationOptional<Date>;
  }
  MailMessage.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: true },
      kind: { type: DataTypes.STRING(40), allowNull: false },
      recipient: { type: DataTypes.STRING(254), allowNull: false },
      reply_to: { type: DataTypes.STRING(254), allowNull: true },
      subject: { type: DataTypes.STRING(500), allowNull: false },
      text_body: { type: DataTypes.TEXT, allowNull: false },
      html_body: { type: DataTypes.TEXT, allowNull: true },
      sent_at: { type: DataTypes.DATE(3), allowNull: true },
      skip_reason: { type: DataTypes.STRING(40), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'mail_queue', modelName: 'MailMessage', updatedAt: false },
  );
  return MailMessage;
}

export type MailMessageModel = ReturnType<typeof defineMailMessage>;
export type MailMessage = InstanceType<MailMessageModel>;
