// Sending: the widget's eCards, send-ecard (email now, scheduled, share link; flat bodies) and cancel-send; reading
// sends: the list with its filters and one send with its recipients.
import { sendableEcards } from '../../services/ecards/records.ts';
import { thumbImageOf } from '../../services/widgets/public/thumbs.ts';
import { cancelSend } from '../../services/sends/accept/cancel.ts';
import { findLoggedSend, listSends } from '../../services/sends/log/log.ts';
import { requestHashOf, sendEcard } from '../../services/sends/accept/send-ecard.ts';
import { checkAccess } from '../http/mount.ts';
import { defineRoute } from '../http/route.ts';
import { presentFormFields } from '../ecards/present.ts';
import { pageMeta } from '../schema-helpers.ts';
import { seesDirectory } from '../scopes.ts';
import { presentLoggedSend, presentSend } from './present.ts';
import {
  CancelAnswer, CancelBody, GetEcardsQuery, ListSendsQuery, LoggedSend, LoggedSendList, PageMeta, SendableEcardList, SendAnswer, SendBody, SendHeaders, SendIdParams,
} from './schema.ts';

const tags = ['sends'];
const view = { area: 'sends', level: 'view' } as const;
const asList = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export const sendRoutes = [
  defineRoute({
    method: 'get',
    path: '/pub/ecard-actions/get-ecards',
    summary: 'The eCards of a widget (by its vanity id, case-sensitive) that its gallery shows (enabled, published, not expired), as a sender picks one: the first 500 in display order',
    tags,
    access: { area: 'ecards', level: 'view' },
    query: GetEcardsQuery,
    response: SendableEcardList,
    async handler({ query }, { services, caller }) {
      return (await sendableEcards(services, caller.account.id, query.widgetId, services.now())).map((e) => ({
        ecardid: e.id,
        vanity_id: e.vanity_id,
        name: e.name,
        emailSubject: e.email_subject,
        header: e.header,
        details: e.details,
        image_url: e.self_hosted_url,
        thumb_image: thumbImageOf(services.config.publicBaseUrl, e),
        envelope_bg_image_url: e.envelope_bg_image_url,
        canSchedule: e.can_schedule,
        ...presentFormFields(e),
      }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/pub/ecard-actions/send-ecard',
    audit: { none: 'a send is not audited: the send log is its record' },
    summary: 'Sends an eCard by email now, at `sendAt`, or as a share link (header Idempotency-Key, 1–255 characters in 0x21–0x7E: the same key within 24 h sends once)',
    tags,
    access: { area: 'sends', level: 'manage' },
    answer: 'flat',
    body: SendBody,
    headers: SendHeaders,
    response: SendAnswer,
    async handler({ body, headers }, { services, caller }) {
      const idempotencyKey = headers['Idempotency-Key'];
      // A gift spends money: the key needs the gift-card area too.
      if (body.giftCard) checkAccess({ area: 'gift_cards', level: 'manage' }, caller.apiKey);
      const send = await sendEcard(services, caller.account, {
        ecardId: body.ecardId,
        senderEmail: body.senderEmail,
        senderName: body.senderName,
        recipientNames: asList(body.recipientName),
        recipientEmails: asList(body.recipientEmail),
        sendAt: body.sendAt,
        share: body.type === 'ecard_copy_link' || body.is_sharing === true,
        widgetId: body.widgetId,
        personalMessage: body.personalMessage,
        locale: body.locale,
        mergeTags: body.mergeTags,
        overrideProps: body.overrideProps,
        idempotencyKey,
        requestHash: requestHashOf(body),
        gift: body.giftCard,
        notifyOnOpen: body.opennotification === true,
      });
      return presentSend(send, services.config.publicBaseUrl);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/pub/ecard-actions/cancel-send',
    audit: 'sends.cancel',
    summary: 'Cancels a scheduled send (its quota is given back)',
    tags,
    access: { area: 'sends', level: 'manage' },
    body: CancelBody,
    response: CancelAnswer,
    async handler({ body }, { services, caller }) {
      const send = await cancelSend(services, caller.account.id, body.sendId);
      return { sendId: send.send_id, status: 'canceled' as const };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/pub/ecard-actions/sends',
    summary: 'The account’s sends with their recipients, newest first, paged; filters by status, origin, eCard, widget, campaign, automation, a recipient’s exact address and creation time; directory members’ names and emails are null without directory: view',
    tags,
    access: view,
    query: ListSendsQuery,
    response: LoggedSendList,
    meta: PageMeta,
    async handler({ query }, { services, caller }) {
      const filters = {
        status: query.status,
        origin: query.origin,
        ecardId: query.ecardId,
        widgetId: query.widgetId,
        campaignId: query.campaign_id,
        automationId: query.automation_id,
        recipientEmail: query.recipientEmail,
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
      };
      const { rows, count } = await listSends(services, caller.account.id, filters, { page: query.page, perPage: query.perPage });
      const seesMembers = seesDirectory(caller);
      return { data: rows.map((logged) => presentLoggedSend(logged, seesMembers)), meta: pageMeta(query.page, query.perPage, count) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/pub/ecard-actions/sends/:sendId',
    summary: 'One send (by the sendId send-ecard answered) with its recipients: their states, sent, opened and bounced times and failures',
    tags,
    access: view,
    params: SendIdParams,
    response: LoggedSend,
    async handler({ params }, { services, caller }) {
      return presentLoggedSend(await findLoggedSend(services, caller.account.id, params.sendId), seesDirectory(caller));
    },
  }),
];
