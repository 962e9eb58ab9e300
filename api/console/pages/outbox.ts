// The console's sandbox outbox: the sandbox's emails (mail_sink), listed and shown one at a time, the HTML inside a
// sandboxed iframe. Only in sandbox mode; in live mode the page says to switch (live emails go out by SMTP).
import Router from '@koa/router';
import { notFound } from '../../../lib/errors.ts';
import { findOutboxMessage, listOutbox } from '../../../services/mail/outbox.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { parseInput } from '../../validation.ts';
import { outboxHead } from '../outbox/present.ts';
import { OutboxParams, OutboxQuery } from '../outbox/schema.ts';
import { paging, renderPage } from './render.ts';
import { CONSOLE_PREFIX, filledQuery, signedIn } from './router.ts';

const OUTBOX = `${CONSOLE_PREFIX}/outbox`;

export function consoleOutboxPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  router.get(
    '/outbox',
    signedIn(services, async (ctx, page) => {
      if (page.account.mode !== 'sandbox') return renderPage(ctx, { title: 'Sandbox outbox', view: 'outbox', ...page, live: true });
      const query = parseInput(OutboxQuery, filledQuery(ctx.query), 'query');
      const { rows, count } = await listOutbox(services.models, page.account.id, query);
      const link = (n: number) => `${OUTBOX}?page=${n}&perPage=${query.perPage}`;
      renderPage(ctx, {
        title: 'Sandbox outbox',
        view: 'outbox',
        ...page,
        messages: rows.map(outboxHead),
        ...paging(query.page, query.perPage, count, link),
      });
    }),
  );
  router.get(
    '/outbox/:id',
    signedIn(services, async (ctx, page) => {
      if (page.account.mode !== 'sandbox') return renderPage(ctx, { title: 'Sandbox outbox', view: 'outbox', ...page, live: true });
      const params = parseInput(OutboxParams, ctx.params, 'path');
      const message = await findOutboxMessage(services.models, page.account.id, params.id);
      if (!message) throw notFound(`The sandbox outbox has no message ${params.id}`);
      renderPage(ctx, { title: 'Sandbox email', view: 'outbox-message', ...page, message: { ...outboxHead(message), text: message.text_body, html: message.html_body } });
    }),
  );
  return router;
}
