// The console's password page: the current password and a new one; the change ends every session of the owner (this
// one too), so the answer is a 303 to the sign-in page with a notice. The same service as the console API's
// POST password.
import { ApiError } from '../../../lib/errors.ts';
import { changePassword, MIN_PASSWORD_LENGTH } from '../../../services/console/sessions.ts';
import { definePage, page, seeOther } from '../../http/route.ts';
import { clearSessionCookie } from '../../http/session-cookie.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { PasswordBody } from '../session/schema.ts';

const view = { title: 'Change your password', view: 'password', minLength: MIN_PASSWORD_LENGTH };

export const passwordPageRoutes = [
  definePage({
    method: 'get',
    role: 'member',
    path: '/password',
    handler: async () => page(view),
  }),
  definePage({
    method: 'post',
    role: 'member',
    path: '/password',
    audit: 'user.password_change',
    body: PasswordBody,
    fromForm: (form) => ({ current_password: form.current_password || undefined, new_password: form.new_password || undefined }),
    async handler({ body }, { services, session, koa }) {
      try {
        await changePassword(services, session, { current: body.current_password, next: body.new_password, clientIp: koa.ip });
      } catch (err) {
        // A wrong current password or a short new one: the form again, with the reason.
        if (!(err instanceof ApiError) || (err.status !== 403 && err.status !== 422)) throw err;
        return page({ ...view, error: err.message }, err.status);
      }
      clearSessionCookie(koa);
      return seeOther(`${CONSOLE_PREFIX}/sign-in?done=password`);
    },
  }),
];
