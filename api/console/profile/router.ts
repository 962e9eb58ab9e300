// The console API's own sessions of the signed-in person: list them, end one, end every other.
import { listSessions, revokeOtherSessions, revokeSession } from '../../../services/console/session-list.ts';
import { defineSessionRoute } from '../../http/route.ts';
import { Ended, Revoked, SessionIdParams, SessionList } from './schema.ts';

export const consoleProfileRoutes = [
  defineSessionRoute({
    method: 'get',
    role: 'member',
    path: '/me/sessions',
    summary: 'Your sessions still open, newest first, with where and in what each was opened',
    response: SessionList,
    async handler(_input, { services, session }) {
      return { sessions: await listSessions(services, session) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/me/sessions/revoke-others',
    audit: 'session.revoke_others',
    summary: 'Ends every session of yours but this one',
    response: Revoked,
    async handler(_input, { services, session }) {
      return { revoked: await revokeOtherSessions(services, session) };
    },
  }),
  defineSessionRoute({
    method: 'post',
    role: 'member',
    path: '/me/sessions/:id/revoke',
    audit: 'session.revoke',
    summary: 'Ends one of your sessions (another person’s id is 404)',
    params: SessionIdParams,
    response: Ended,
    async handler({ params }, { services, session }) {
      await revokeSession(services, session, params.id);
      return { ok: true as const };
    },
  }),
];
