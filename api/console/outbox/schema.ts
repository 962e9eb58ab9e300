// Contracts of the sandbox outbox: the emails the sandbox account "sent" (mail_sink), listed without their bodies
// and shown one at a time with them.
import { z } from 'zod';
import { numericId, pageQuery, resource } from '../../schema-helpers.ts';

export const OutboxQuery = pageQuery();
export const OutboxParams = z.object({ id: resource('sandbox_email', numericId()) });

const head = {
  id: z.number().int(),
  message_id: z.string().describe('the Message-ID the email would have carried'),
  from: z.string(),
  to: z.string(),
  reply_to: z.string().nullable(),
  subject: z.string(),
  created_at: z.string().describe('when it was "sent" (ISO 8601)'),
};
export const OutboxItem = z.object(head);
export const OutboxList = z.array(OutboxItem);
export const OutboxMessage = z.object({
  ...head,
  text: z.string(),
  html: z.string().nullable().describe('show it in <iframe sandbox srcdoc>: it is the email as a recipient would get it'),
});
