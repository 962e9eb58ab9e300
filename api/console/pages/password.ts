// The console's password page: the current password and a new one; the change ends every session of the owner (this
// one too), so the answer is a 303 to the sign-in page with a notice. The same service as the console API's
// POST password.
import Router from '@koa/router';
import { ApiError } from '../../../lib/errors.ts';
import { changePassword, MIN_PASSWORD_LENGTH } from '../../../services/console/sessions.ts';
import type { ApiServices, ApiState } from '../../context.ts';
import { parseInput } from '../../validation.ts';
import { PasswordBody } from '../session/schema.ts';
import { clearSessionCookie } from '../session-cookie.ts';
import { renderPage } from './render.ts';
import { CONSOLE_PREFIX, pageForm, seeOther, signedIn } from './router.ts';

export function consolePasswordPagesRouter(services: ApiServices): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: CONSOLE_PREFIX });
  const view = { title: 'Change your password', view: 'password', minLength: MIN_PASSWORD_LENGTH };
  router.get(
    '/password',
    signedIn(services, async (ctx, page) => {
      renderPage(ctx, { ...view, ...page });
    }),
  );
  router.post(
    '/password',
    signedIn(services, async (ctx, page) => {
      const form = await pageForm(services, ctx, page);
      const body = parseInput(PasswordBody, { current_password: form.current_password || undefined, new_password: form.new_password || undefined }, 'body');
      try {
        await changePassword(services, page.session, { current: body.current_password, next: body.new_password, clientIp: ctx.ip });
      } catch (err) {
        // A wrong current password or a short new one: the form again, with the reason.
        if (!(err instanceof ApiError) || (err.status !== 403 && err.status !== 422)) throw err;
        return renderPage(ctx, { ...view, ...page, error: err.message }, err.status);
      }
      clearSessionCookie(ctx);
      seeOther(ctx, `${CONSOLE_PREFIX}/sign-in?done=password`);
    }),
  );
  return router;
}
