// P12: widget sends, `POST /v2/widget/{vanity_id}/send` as a visitor's form posts it (a form token, one recipient,
// email now: the widget never waits for the dispatch), accepted per second through the API process at 32
// connections (bench/load.ts), a round ending when the last accepted send's workflow exists; against the bare
// `workflow.start` loop of P2 at the same concurrency, rounds alternated. Target ≥ 0.6.
// The form's traps: a token is answered as a silent success (nothing sent) when it is used within 3 s of its issue,
// so every token a run uses is issued (as GET /v2/widget/{vanity_id} issues it, with the service's signing key) at
// the pair's start, and the first round begins 3 s later; each token is used once (a token is its submission's
// idempotency key). The widget's per-IP window (at most 500 emails per 10 minutes from one address; the bench sends
// from one) is per widget: the sends rotate over WIDGETS widgets of one account, each allowing 500 per window.
// After each round, outside the measured time, the worker delivers what was accepted (every email counted at the
// SMTP server) so the next round starts on an idle worker.
import { setTimeout as sleep } from 'node:timers/promises';
import { Op } from 'sequelize';
import { createAccount } from '../services/accounts.ts';
import { MIN_FILL_MS } from '../services/widgets/public/send.ts';
import { issueFormToken } from '../services/widgets/public/tokens.ts';
import { newVanityId } from '../services/widgets/admin/widgets.ts';
import { sendWorkflowId } from '../workflows/send-ecard/contract.ts';
import { alternatedRounds, untilWorkflowsStarted, workflowStartRate, type Pair } from './harness.ts';
import { httpLoad } from './load.ts';
import type { BenchContext } from './stack.ts';

const CONCURRENCY = 32;
const WIDGETS = 32;
/** Tokens issued for the whole pair: far more than its rounds can use at this machine's rates (a round that runs out fails). */
const TOKENS = { quick: 4_000, full: 40_000 };

export const widgetSendsPair: Pair<BenchContext> = {
  name: 'p12-widget-sends',
  async run(ctx) {
    const { models, client, config, settings, api, smtp } = ctx;
    const { accountId } = await createAccount(ctx, { name: 'Bench P12', ownerEmail: `bench-widget-${Date.now()}@example.com`, plan: 'enterprise' });
    // Public widgets that take 500 emails per window from one address and 100,000 a day, one card each.
    const wconfig = { theme: 'light', limitEmailsPerSession: 500, dailySendCap: 100_000, personalMessageOptional: true };
    await models.Widget.bulkCreate(Array.from({ length: WIDGETS }, (_, i) => ({ account_id: accountId, vanity_id: newVanityId(), name: `Bench widget ${i}`, wconfig, public_share_enabled: true })));
    const widgets = await models.Widget.findAll({ where: { account_id: accountId }, order: [['id', 'ASC']] });
    await models.Ecard.bulkCreate(
      widgets.map((widget) => ({
        account_id: accountId, widget_id: widget.id, vanity_id: newVanityId(), name: 'Bench', email_subject: 'Hi {{recipient_first_name}}', header: 'Hello',
        details: '<p>Dear {{recipient_name}}, greetings from {{sender_name}}.</p>', ecard_link: null, url_redirect_after_send: null, ecardbrandid: null, ecard_mode: null,
        envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null, self_hosted_url: null, price: null,
      })),
    );
    const cardOf = new Map((await models.Ecard.findAll({ where: { account_id: accountId } })).map((e) => [e.widget_id, e.vanity_id]));
    // Token k is for widget k % WIDGETS: a run's request i takes the path's widget and the body's token of the same
    // index (each request uses one `{{once}}` value, in order), so a run starts at a multiple of WIDGETS.
    const issued = Date.now();
    const tokens = Array.from({ length: settings.quick ? TOKENS.quick : TOKENS.full }, (_, k) => issueFormToken(ctx.services.dataKeys, widgets[k % WIDGETS]!.id, new Date(issued)));
    let used = 0;
    await sleep(Math.max(0, issued + MIN_FILL_MS + 500 - Date.now()));

    let runs = 0;
    let acceptedAll = 0;
    // Per round (warm-up included): how long after the last answer the last workflow started.
    const workflowTailMs: number[] = [];
    const widgetSends = async (seconds: number) => {
      const run = ++runs;
      const first = Math.ceil(used / WIDGETS) * WIDGETS;
      const body = {
        form_token: '{{once}}', ecard: '{{card}}', share_mode: 'email', sender: { name: 'Sam', email: 'sam@example.com' },
        recipients: [{ name: `Rita R${run}.{{n}}`, email: `w${run}.{{n}}@bench.example.com` }], personalMessage: '<p>Hi</p>',
      };
      const smtpBefore = smtp.received();
      const load = await httpLoad({
        origin: api.url, method: 'POST', path: '/v2/widget/{{widget}}/send', body: JSON.stringify(body), connections: CONCURRENCY, seconds, keepBodies: true,
        lists: { widget: widgets.map((w) => w.vanity_id), card: widgets.map((w) => cardOf.get(w.id)!) },
        once: tokens.slice(first),
      });
      if (load.exhausted) throw new Error(`P12: the ${tokens.length} form tokens issued ran out: issue more (TOKENS)`);
      used = first + load.answered;
      const sendIds = load.bodies.map((text) => {
        const answer = JSON.parse(text) as { sendId?: string; emailsSent?: number };
        if (!answer.sendId || answer.emailsSent !== 1) throw new Error(`P12 widget send: unexpected answer ${text.slice(0, 300)}`);
        return answer.sendId;
      });
      // A silent trap answers like a success with an id stored nowhere: every answered send must be a row.
      let rows = 0;
      for (let i = 0; i < sendIds.length; i += 1000) rows += await models.Send.count({ where: { account_id: accountId, send_id: { [Op.in]: sendIds.slice(i, i + 1000) } } });
      if (rows !== sendIds.length) throw new Error(`P12: ${sendIds.length - rows} of ${sendIds.length} answered widget sends are not in the database (a trap answered them)`);
      acceptedAll += sendIds.length;
      const lastStart = await untilWorkflowsStarted(client, sendIds.map((id) => sendWorkflowId(accountId, id)), CONCURRENCY);
      const rate = sendIds.length / ((Math.max(load.lastAnswerAt, lastStart) - load.startedAt) / 1000);
      workflowTailMs.push(Math.max(0, Math.round(lastStart - load.lastAnswerAt)));
      // Outside the measured time: every email of the round at the SMTP server.
      for (const givenUp = Date.now() + 180_000; smtp.received() - smtpBefore < sendIds.length; await sleep(50)) {
        if (Date.now() > givenUp) throw new Error(`P12: ${smtp.received() - smtpBefore} emails of ${sendIds.length} accepted widget sends after 3 minutes`);
      }
      return rate;
    };
    const figures = await alternatedRounds(
      'P12',
      { name: 'widget send', round: (warmup) => widgetSends(warmup ? settings.warmupSeconds : settings.seconds) },
      { name: 'bare workflow.start', round: (warmup) => workflowStartRate(client, config.temporal.taskQueue, `bench-widget-bare-${++runs}`, warmup ? settings.warmupSeconds : settings.seconds, CONCURRENCY) },
      settings,
      'req/s',
    );
    const rows = await models.Send.count({ where: { account_id: accountId, origin: 'widget' } });
    if (rows !== acceptedAll) throw new Error(`P12: ${rows} widget sends in the database for ${acceptedAll} accepted`);
    return [{
      name: 'p12-widget-sends',
      compares: `widget send (email now) vs bare workflow.start, ${CONCURRENCY} connections`,
      target: '≥ 0.6',
      unit: 'req/s',
      ...figures,
      notes: { concurrency: CONCURRENCY, widgets: WIDGETS, tokensIssued: tokens.length, accepted: acceptedAll, workflowTailMs },
    }];
  },
};
