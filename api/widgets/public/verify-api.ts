// Sender verification (POST /v2/widget/{vanity_id}/verify/start, /confirm): the page asks for a code for the
// sender's address, then trades the code for a widget session the send takes. The rules: services/widgets/public/verification.ts.
import { z } from 'zod';
import { confirmVerification, startVerification } from '../../../services/widgets/public/verification.ts';
import { defineWidgetRoute, type AnyRoute } from '../../http/route.ts';

const tags = ['widget'];
const VanityParams = z.object({ vanity_id: z.string().min(1).max(32) });
const Email = z.string().trim().max(254).email('email is not a valid email address');

export const verifyApiRoutes: AnyRoute[] = [
  defineWidgetRoute({
    method: 'post',
    path: '/:vanity_id/verify/start',
    summary: 'Mails a 6-digit code to the sender’s address (always the same answer: limits and suppressions are not told)',
    tags,
    params: VanityParams,
    body: z.object({ form_token: z.string().min(1).max(1024), email: Email }),
    response: z.object({ sent: z.literal(true) }),
    async handler({ params, body }, { services, clientIp }) {
      await startVerification(services, params.vanity_id, { formToken: body.form_token, email: body.email, clientIp });
      return { sent: true as const };
    },
  }),
  defineWidgetRoute({
    method: 'post',
    path: '/:vanity_id/verify/confirm',
    summary: 'Trades the mailed code for a widget session (422 code_invalid with tries_left, 422 code_expired, 429 after five tries)',
    tags,
    params: VanityParams,
    body: z.object({ email: Email, code: z.string().trim().regex(/^\d{6}$/, 'code is the 6 digits of the email') }),
    response: z.object({ widget_session: z.string(), expires_at: z.string() }),
    async handler({ params, body }, { services }) {
      return confirmVerification(services, params.vanity_id, body);
    },
  }),
];
