// The console's outbox: the emails kept in mail_sink (the sandbox's; the live account's too when the transport is the
// sink), listed and shown one at a time, the HTML in a sandboxed iframe whose document is its own route with the
// email's own policy (inline styles, images; no scripts), so the email looks as it will. Where mail goes is said
// first; a live account whose mail goes out by SMTP sees only that.
import { notFound } from '../../../lib/errors.ts';
import type { Account } from '../../../models/Account.ts';
import { findOutboxMessage, keepsItsEmails, listOutbox } from '../../../services/mail/outbox.ts';
import type { ApiServices } from '../../context.ts';
import { definePage, framed, page } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { filledQuery, parseInput } from '../../http/validation.ts';
import { mailDestination, outboxHead } from './present.ts';
import { OutboxParams, OutboxQuery } from './schema.ts';
import { EMAIL_CSP } from '../ecards/previews.ts';
import { paging } from '../kit/render.ts';

const OUTBOX = `${CONSOLE_PREFIX}/outbox`;

/**
 * The email's document: the previews' email policy plus the CSP `sandbox` directive, so it runs nothing even when
 * opened outside the console's `<iframe sandbox>` (the frame's own link, a new tab).
 */
export const KEPT_EMAIL_CSP = `${EMAIL_CSP}; sandbox`;

const notKept = (destination: string) => page({ title: 'Outbox', view: 'outbox', destination, notKept: true });

/** The account's kept email, or 404 (another account's id too). */
async function keptMessage(services: ApiServices, account: Account, rawParams: unknown) {
  const params = parseInput(OutboxParams, rawParams, 'path');
  const message = await findOutboxMessage(services, account.id, params.id);
  if (!message) throw notFound(`The outbox has no message ${params.id}`);
  return message;
}

export const outboxPageRoutes = [
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/outbox',
    // Read in the handler: an account whose mail is not kept sees the notice whatever the query says.
    async handler(_input, { services, account, koa }) {
      const destination = mailDestination(account.mode, services.config.mail);
      if (!keepsItsEmails(account.mode, services.config.mail.transport)) return notKept(destination);
      const query = parseInput(OutboxQuery, filledQuery(koa.query), 'query');
      const { rows, count } = await listOutbox(services, account.id, query);
      const link = (n: number) => `${OUTBOX}?page=${n}&perPage=${query.perPage}`;
      return page({ title: 'Outbox', view: 'outbox', destination, sandbox: account.mode === 'sandbox', messages: rows.map(outboxHead), ...paging(query.page, query.perPage, count, link) });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/outbox/:id',
    async handler(_input, { services, account, koa }) {
      const destination = mailDestination(account.mode, services.config.mail);
      if (!keepsItsEmails(account.mode, services.config.mail.transport)) return notKept(destination);
      const message = await keptMessage(services, account, koa.params);
      return page({ title: 'Outbox email', view: 'outbox-message', destination, message: { ...outboxHead(message), text: message.text_body, hasHtml: message.html_body !== null } });
    },
  }),
  definePage({
    method: 'get',
    role: { area: 'sends', level: 'view' },
    path: '/outbox/:id/html',
    async handler(_input, { services, account, koa }) {
      if (!keepsItsEmails(account.mode, services.config.mail.transport)) throw notFound('The outbox keeps no emails of this account');
      const message = await keptMessage(services, account, koa.params);
      if (message.html_body === null) throw notFound(`The email ${message.id} has no HTML part`);
      return framed(message.html_body, KEPT_EMAIL_CSP);
    },
  }),
];
