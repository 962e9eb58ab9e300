// Sending: the widget's eCards, send-ecard (email now, scheduled, share link; flat bodies) and cancel-send.
import { sha256Hex } from '../../lib/hash.ts';
import { findWidgetByVanity } from '../../services/widgets.ts';
import { acceptSend } from '../../services/sends/accept.ts';
import { answerFor, cancelSend } from '../../services/sends/answers.ts';
import { startSendWorkflowOf } from '../../services/sends/sweep.ts';
import { awaitSendResult, cancelSendWorkflow } from '../../workflows/send-ecard/lifecycle.ts';
import { defineRoute } from '../route.ts';
import { CancelAnswer, CancelBody, GetEcardsQuery, SendableEcardList, SendAnswer, SendBody } from './schema.ts';

const tags = ['sends'];
const asList = (value: string | string[] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

// Object keys in one order, so the same body always hashes the same (Idempotency-Key checks).
const canonical = (value: unknown): unknown =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
    : Array.isArray(value)
      ? value.map(canonical)
      : value;

export const sendRoutes = [
  defineRoute({
    method: 'get',
    path: '/pub/ecard-actions/get-ecards',
    summary: 'The enabled eCards of a widget (by vanity id), as a sender picks one',
    tags,
    access: { area: 'ecards', level: 'view' },
    query: GetEcardsQuery,
    response: SendableEcardList,
    async handler({ query }, { services, caller }) {
      const widget = await findWidgetByVanity(services.models, caller.account.id, query.widgetId);
      const ecards = await services.models.Ecard.findAll({ where: { widget_id: widget.id, disabled: false }, order: [['display_order', 'ASC'], ['id', 'ASC']] });
      return ecards.map((e) => ({
        ecardid: e.id,
        vanity_id: e.vanity_id,
        name: e.name,
        emailSubject: e.email_subject,
        header: e.header,
        details: e.details,
        image_url: e.self_hosted_url,
        envelope_bg_image_url: e.envelope_bg_image_url,
        canSchedule: e.can_schedule,
      }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/pub/ecard-actions/send-ecard',
    summary: 'Sends an eCard by email now, at `sendAt`, or as a share link (header Idempotency-Key: the same key within 24 h sends once)',
    tags,
    access: { area: 'sends', level: 'manage' },
    envelope: 'flat',
    body: SendBody,
    response: SendAnswer,
    async handler({ body }, { services, caller, koa }) {
      const idempotencyKey = koa.get('Idempotency-Key').trim() || undefined;
      const share = body.type === 'ecard_copy_link' || body.is_sharing === true;
      const { send, created } = await acceptSend({ models: services.models, config: services.config, now: services.now }, caller.account, {
        ecardId: body.ecardId,
        senderEmail: body.senderEmail,
        senderName: body.senderName,
        recipientNames: asList(body.recipientName),
        recipientEmails: asList(body.recipientEmail),
        sendAt: body.sendAt,
        share,
        widgetId: body.widgetId,
        personalMessage: body.personalMessage,
        locale: body.locale,
        mergeTags: body.mergeTags,
        overrideProps: body.overrideProps,
        idempotencyKey,
        requestHash: await sha256Hex(JSON.stringify(canonical(body))),
      });
      const target = services.workflows;
      if (target && created) {
        // If Temporal is unreachable now, the worker's sweep starts it: the send is committed either way.
        await startSendWorkflowOf(services.models, target, send.id).catch((err: unknown) => services.logger.warn({ err, sendId: send.send_id }, 'send workflow not started yet'));
      }
      if (target && send.mode !== 'schedule' && (send.status === 'pending' || send.status === 'scheduled')) {
        await awaitSendResult(target, send.account_id, send.send_id, services.config.sendWaitSeconds * 1000).catch(() => undefined);
        await send.reload();
      }
      return answerFor(send, services.config.publicBaseUrl);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/pub/ecard-actions/cancel-send',
    summary: 'Cancels a scheduled send (its quota is given back)',
    tags,
    access: { area: 'sends', level: 'manage' },
    body: CancelBody,
    response: CancelAnswer,
    async handler({ body }, { services, caller }) {
      const send = await cancelSend(services.models, caller.account.id, body.sendId);
      if (services.workflows) await cancelSendWorkflow(services.workflows, send.account_id, send.send_id).catch(() => undefined);
      return { sendId: send.send_id, status: 'canceled' as const };
    },
  }),
];
