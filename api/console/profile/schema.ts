// Contracts of a person's own sessions in the console.
import { z } from 'zod';
import { resource } from '../../schema-helpers.ts';

export const SessionIdParams = z.object({ id: resource('console_session', z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'id is not a session id')) });

export const SessionItem = z.object({
  id: z.string().describe('the session’s public id (never the cookie’s)'),
  current: z.boolean().describe('the session making this request'),
  created_at: z.string(),
  last_seen_at: z.string(),
  ip: z.string().nullable().describe('the address it signed in from'),
  user_agent: z.string().nullable().describe('the browser it signed in with, as it named itself'),
  account_id: z.number().int().describe('the live account it works on'),
  mode: z.enum(['live', 'sandbox']),
});
export const SessionList = z.object({ sessions: z.array(SessionItem) });
export const Revoked = z.object({ revoked: z.number().int() });
export const Ended = z.object({ ok: z.literal(true) });
