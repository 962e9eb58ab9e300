// The widget's send (POST /v2/widget/{vanity_id}/send): HTTP only, the rules are services/widgets/public/send.ts. Flat
// bodies like send-ecard's; refusals form_expired, payment_required, limitReached, einvalid/finvalid (domain
// lists), verification_required, and send-ecard's own.
import { sendThroughWidget } from '../../../services/widgets/public/send.ts';
import { defineWidgetRoute, type AnyRoute } from '../../http/route.ts';
import { presentWidgetSend, WidgetSendAnswer, WidgetSendBody, WidgetVanityParams } from './send-schema.ts';

export const sendApiRoutes: AnyRoute[] = [
  defineWidgetRoute({
    method: 'post',
    path: '/:vanity_id/send',
    summary: 'Sends (or shares) an eCard of a public widget; never waits for the dispatch; the same form token sends once',
    tags: ['widget'],
    answer: 'flat',
    params: WidgetVanityParams,
    body: WidgetSendBody,
    response: WidgetSendAnswer,
    async handler({ params, body }, { services, clientIp }) {
      return presentWidgetSend(await sendThroughWidget(services, params.vanity_id, body, clientIp));
    },
  }),
];
