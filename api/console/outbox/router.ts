// The sandbox outbox: sandbox emails never leave (they land in mail_sink), and here the owner reads them. Only in
// sandbox mode: live emails go out by SMTP and are not the console's to show (422 sandbox_only says to switch).
import { notFound, sandboxOnly as sandboxOnlyError } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { findOutboxMessage, listOutbox } from '../../../services/mail/outbox.ts';
import { PageMeta, pageMeta } from '../../schema-helpers.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { outboxHead } from './present.ts';
import { OutboxList, OutboxMessage, OutboxParams, OutboxQuery } from './schema.ts';

function sandboxOnly(account: Account): void {
  if (account.mode !== 'sandbox') throw sandboxOnlyError('The outbox holds the sandbox’s emails: switch to the sandbox first (POST /v2/console/api/mode { "mode": "sandbox" })');
}

export const consoleOutboxRoutes = [
  defineSessionRoute({
    method: 'get',
    path: '/outbox',
    summary: 'The sandbox’s emails (mail_sink), newest first, paged; sandbox mode only (else 422 sandbox_only)',
    query: OutboxQuery,
    response: OutboxList,
    meta: PageMeta,
    async handler({ query }, { services, account }) {
      sandboxOnly(account);
      const { rows, count } = await listOutbox(services.models, account.id, query);
      return { data: rows.map(outboxHead), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineSessionRoute({
    method: 'get',
    path: '/outbox/:id',
    summary: 'One sandbox email with its text and HTML; sandbox mode only',
    params: OutboxParams,
    response: OutboxMessage,
    async handler({ params }, { services, account }) {
      sandboxOnly(account);
      const message = await findOutboxMessage(services.models, account.id, params.id);
      if (!message) throw notFound(`The sandbox outbox has no message ${params.id}`);
      return { ...outboxHead(message), text: message.text_body, html: message.html_body };
    },
  }),
];
