// The console's Sessions page (Settings › Sessions): each session of the signed-in person with where and in what it was
// opened and when it was last used, a button to end each other one, and one to end them all but this one.
import { listSessions, revokeOtherSessions, revokeSession } from '../../../services/console/session-list.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { SessionIdParams } from './schema.ts';

const SESSIONS_PAGE = `${CONSOLE_PREFIX}/profile/sessions`;

export const profilePageRoutes = [
  definePage({
    method: 'get',
    role: 'member',
    path: '/profile/sessions',
    async handler(_input, { services, session, koa }) {
      const sessions = await listSessions(services, session);
      const notice = koa.query.ended === 'others' ? 'Your other sessions were ended.' : koa.query.ended === 'one' ? 'The session was ended.' : undefined;
      return page({ title: 'Sessions', view: 'profile-sessions', sessions, others: sessions.some((s) => !s.current), notice });
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/profile/sessions/revoke-others',
    audit: 'session.revoke_others',
    async handler(_input, { services, session }) {
      await revokeOtherSessions(services, session);
      return seeOther(`${SESSIONS_PAGE}?ended=others`);
    },
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/profile/sessions/:id/revoke',
    audit: 'session.revoke',
    params: SessionIdParams,
    async handler({ params }, { services, session }) {
      await revokeSession(services, session, params.id);
      return seeOther(`${SESSIONS_PAGE}?ended=one`);
    },
  }),
];
