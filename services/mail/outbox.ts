// The outbox: the emails an account "sent" as the mail transport stored them in mail_sink (a sandbox's always; a
// live account's when the transport is the sink, as under `npm start` without SMTP_URL). Read by the console;
// always scoped by the account.
import type { ServiceContext } from '../context.ts';
import type { Attributes } from 'sequelize';
import type { Config } from '../../lib/config.ts';
import type { AccountMode } from '../../models/Account.ts';
import type { MailSinkMessage } from '../../models/MailSinkMessage.ts';

/** A sink message as presenters read it: the row's values, never the model. */
export type MailSinkMessageView = Attributes<MailSinkMessage>;

/** Whether the account's emails are kept in mail_sink (so its outbox has them): a sandbox's, or all with the sink. */
export function keepsItsEmails(mode: AccountMode, transport: Config['mail']['transport']): boolean {
  return mode === 'sandbox' || transport === 'sink';
}

export async function listOutbox(ctx: Pick<ServiceContext, 'models'>, accountId: number, page: { page: number; perPage: number }) {
  const { models } = ctx;
  return models.MailSinkMessage.findAndCountAll({
    where: { account_id: accountId },
    // Newest first; the id breaks ties between messages stored in the same millisecond (a bulk batch).
    order: [['id', 'DESC']],
    limit: page.perPage,
    offset: (page.page - 1) * page.perPage,
    attributes: { exclude: ['text_body', 'html_body'] },
  });
}

/** One message with its bodies, or null when it is not this account's. */
export async function findOutboxMessage(ctx: Pick<ServiceContext, 'models'>, accountId: number, id: number) {
  const { models } = ctx;
  return models.MailSinkMessage.findOne({ where: { id, account_id: accountId } });
}
