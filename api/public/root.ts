// `GET /`: the public server's root leads a person to the console (its sign-in page when signed out), the one page
// a newcomer on `npm start` is looking for.
import { CONSOLE_PREFIX } from '../http/session.ts';
import { defineFile } from '../http/route.ts';

export const rootRoutes = [
  defineFile({
    method: 'get',
    path: '/',
    handler: async () => ({ seeOther: CONSOLE_PREFIX }),
  }),
];
