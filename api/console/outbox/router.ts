// The outbox: sandbox emails never leave (they land in mail_sink), nor do live ones under the sink transport, and
// here the owner reads them. Live emails that go out by SMTP are not the console's to show (422 sandbox_only says
// to switch).
import type { Config } from '../../../lib/config.ts';
import { notFound, sandboxOnly as sandboxOnlyError } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { findOutboxMessage, keepsItsEmails, listOutbox } from '../../../services/mail/outbox.ts';
import { PageMeta, pageMeta } from '../../schema-helpers.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { outboxHead } from './present.ts';
import { OutboxList, OutboxMessage, OutboxParams, OutboxQuery } from './schema.ts';

function sandboxOnly(account: Account, mail: Config['mail']): void {
  if (!keepsItsEmails(account.mode, mail.transport)) throw sandboxOnlyError('The outbox holds the sandbox’s emails: switch to the sandbox first (POST /v2/console/api/mode { "mode": "sandbox" })');
}

export const consoleOutboxRoutes = [
  defineSessionRoute({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/outbox',
    summary: 'The emails kept in mail_sink (the sandbox’s; the live account’s too under MAIL_TRANSPORT=sink), newest first, paged; else 422 sandbox_only',
    query: OutboxQuery,
    response: OutboxList,
    meta: PageMeta,
    async handler({ query }, { services, account }) {
      sandboxOnly(account, services.config.mail);
      const { rows, count } = await listOutbox(services, account.id, query);
      return { data: rows.map(outboxHead), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineSessionRoute({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/outbox/:id',
    summary: 'One kept email with its text and HTML; as the list, else 422 sandbox_only',
    params: OutboxParams,
    response: OutboxMessage,
    async handler({ params }, { services, account }) {
      sandboxOnly(account, services.config.mail);
      const message = await findOutboxMessage(services, account.id, params.id);
      if (!message) throw notFound(`The outbox has no message ${params.id}`);
      return { ...outboxHead(message), text: message.text_body, html: message.html_body };
    },
  }),
];
