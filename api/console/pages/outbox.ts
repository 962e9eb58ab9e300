// The console's sandbox outbox: the sandbox's emails (mail_sink), listed and shown one at a time, the HTML inside a
// sandboxed iframe. Only in sandbox mode; in live mode the page says to switch (live emails go out by SMTP).
import { notFound } from '../../../lib/errors.ts';
import { findOutboxMessage, listOutbox } from '../../../services/mail/outbox.ts';
import { definePage, page } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { filledQuery, parseInput } from '../../http/validation.ts';
import { outboxHead } from '../outbox/present.ts';
import { OutboxParams, OutboxQuery } from '../outbox/schema.ts';
import { paging } from './render.ts';

const OUTBOX = `${CONSOLE_PREFIX}/outbox`;

const live = () => page({ title: 'Sandbox outbox', view: 'outbox', live: true });

export const outboxPageRoutes = [
  definePage({
    method: 'get',
    path: '/outbox',
    // Read in the handler: live mode shows the notice whatever the query says.
    async handler(_input, { services, account, koa }) {
      if (account.mode !== 'sandbox') return live();
      const query = parseInput(OutboxQuery, filledQuery(koa.query), 'query');
      const { rows, count } = await listOutbox(services.models, account.id, query);
      const link = (n: number) => `${OUTBOX}?page=${n}&perPage=${query.perPage}`;
      return page({ title: 'Sandbox outbox', view: 'outbox', messages: rows.map(outboxHead), ...paging(query.page, query.perPage, count, link) });
    },
  }),
  definePage({
    method: 'get',
    path: '/outbox/:id',
    async handler(_input, { services, account, koa }) {
      if (account.mode !== 'sandbox') return live();
      const params = parseInput(OutboxParams, koa.params, 'path');
      const message = await findOutboxMessage(services.models, account.id, params.id);
      if (!message) throw notFound(`The sandbox outbox has no message ${params.id}`);
      return page({ title: 'Sandbox email', view: 'outbox-message', message: { ...outboxHead(message), text: message.text_body, html: message.html_body } });
    },
  }),
];
