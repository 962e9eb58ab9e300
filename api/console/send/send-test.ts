// "Send me a test" from the console: an eCard's email to the owner (or another address), through the mail queue,
// as the key API's `POST /ecard/sendTest` queues it (services/sends/email/test-email.ts); back to the editor with a notice.
import { z } from 'zod';
import { queueTestEmail } from '../../../services/sends/email/test-email.ts';
import { SendTestBody } from '../../ecards/schema.ts';
import { definePage, seeOther, type AnyRoute } from '../../http/route.ts';
import { CONSOLE_PREFIX } from '../../http/session.ts';
import { numericId, resource } from '../../schema-helpers.ts';

const EcardIdParams = z.object({ id: resource('ecard', numericId()) });

export const sendTestPageRoutes: AnyRoute[] = [
  definePage({
    method: 'post',
    role: { area: 'ecards', level: 'manage' },
    path: '/ecards/:id/test',
    audit: 'ecards.send_test',
    params: EcardIdParams,
    body: SendTestBody.omit({ id: true }),
    // A blank address means the owner's.
    fromForm: (form) => (form.email?.trim() ? { email: form.email } : {}),
    async handler({ params, body }, { services, account }) {
      await queueTestEmail(services, account, params.id, body.email);
      return seeOther(`${CONSOLE_PREFIX}/ecards/${params.id}?done=test-sent`);
    },
  }),
];
