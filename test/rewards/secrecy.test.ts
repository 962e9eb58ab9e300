// Secrecy of gift codes, PINs and claim links after a real run: manual codes (with PINs, uploaded as add-codes
// does) and simulated-provider codes, each on send-ecard and on a campaign, and a sandbox gift. The codes and PINs
// appear nowhere but on the claim page's POST: not in Temporal histories, the API's and worker's logs, the SMTP
// server's messages, mail_sink, event_outbox, the webhook delivery log and the bodies it delivered, share pages,
// snapshots, stored sends or any gift-card response; claim tokens only in the email that carries them.
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { Op } from 'sequelize';
import { startApi, startWorker } from '../../app/runtime.ts';
import type { Services } from '../../app/services.ts';
import { createLogger } from '../../lib/logger.ts';
import type { Models } from '../../models/index.ts';
import { issueToken } from '../../services/confirmation-tokens.ts';
import { addCodes } from '../../services/rewards/codes.ts';
import { updateSettings } from '../../services/rewards/settings.ts';
import { drainOutbox } from '../../services/webhooks/drain.ts';
import { campaignFanOutWorkflowId } from '../../workflows/campaign/contract.ts';
import { apiClient, expectSuccess, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { onSuiteEnd } from '../helpers/cleanup.ts';
import { eventually } from '../helpers/eventually.ts';
import { testReceiver } from '../helpers/receiver.ts';
import { claimLinkIn } from '../helpers/rewards.ts';
import { testSmtpServer, type ReceivedMail, type SmtpTestServer } from '../helpers/smtp.ts';
import { testConfig, testModels, testServices } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { hookPath } from '../helpers/webhooks.ts';

type Json = Record<string, unknown>;

/**
 * A history as JSON with each payload's bytes written as the UTF-8 text they hold (the client gives them as base64
 * strings, or as bytes), so a secret inside a payload shows.
 */
const readable = (value: unknown) =>
  JSON.stringify(value, (key, v: unknown) => {
    if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
    if (key === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
    // A Buffer has turned itself into { type: 'Buffer', data: [...] } before the replacer sees it.
    const b = v as { type?: unknown; data?: unknown };
    return b && b.type === 'Buffer' && Array.isArray(b.data) ? Buffer.from(b.data as number[]).toString('utf8') : v;
  });

/** Where the secrets were found in `text` (none, for a pass), named for the failure message. */
function leaks(place: string, text: string, secrets: readonly string[]): string[] {
  return secrets.filter((s) => text.includes(s)).map((s) => `${place}: ${s}`);
}

describe('rewards: codes, PINs and claim links never leak', function () {
  this.timeout(90_000);
  let models: Models;
  let services: Services;
  let smtp: SmtpTestServer;
  let url: string;
  // Everything the API and the worker logged (one services object for both, as in `npm start`), at debug level.
  const lines: string[] = [];

  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = await testConfig({ TEMPORAL_TASK_QUEUE: `cardsvc-rewards-secrecy-${process.pid}`, REWARDS_PROVIDER: 'simulated', LOG_LEVEL: 'debug' });
    models = await testModels();
    smtp = await testSmtpServer();
    services = await testServices(config, { logger: createLogger(config, sink) });
    // No background passes (they would take other tests' sends onto this queue): the outbox is drained below.
    const worker = await startWorker(services, { background: false });
    after(() => worker.stop());
    const api = await startApi(services, { host: '127.0.0.1' });
    onSuiteEnd(() => api.stop());
    url = api.url;
  });

  /** The run every check below reads: gifts of each kind sent and their claim links POSTed, the webhooks delivered. */
  const giftRun = async () => {
    const account: TestAccount = await newAccount(models, 'pro');
    const receiver = await testReceiver();
    const path = hookPath('gift-secrecy');
    const responses: Array<{ what: string; res: ApiResponse }> = [];
    const { api, ok } = apiClient(url, account.liveKey, { onResponse: (method, route, res) => responses.push({ what: `${method} ${route}`, res }) });
    await ok('POST', '/webhook/ecard-shared-url', { url: `${receiver.url}${path}` });

    // Manual codes with PINs, uploaded as `cardsvc rewards add-codes` does: one per gift below, and one never given.
    const stamp = `${process.pid}${Date.now()}`;
    const manualCodes = Array.from({ length: 4 }, (_, i) => `SECRET-${stamp}-QR${i}S`);
    const pins = manualCodes.map((_, i) => `PIN${stamp}${i}`);
    const added = await addCodes(services, account.accountId, { brand: 'Hush', denominationCents: 2500, text: manualCodes.map((c, i) => `${c},${pins[i]}`).join('\n') });
    expect(added).to.deep.equal({ added: 4, duplicates: 0, invalid_lines: [] });

    const widget = await insertWidget(models, account.accountId);
    const ecard = await insertEcard(models, account.accountId, widget.id);
    const domain = `secrecy${stamp}.example.com`;
    let n = 0;
    const to = () => `r${++n}@${domain}`;
    const sendGift = async (giftCard: Json, key = account.liveKey, ecardId = ecard.id) => {
      const recipientEmail = to();
      const res = await api('POST', '/pub/ecard-actions/send-ecard', { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail, giftCard }, key);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.include({ success: true, emailsSent: 1 });
      return recipientEmail;
    };
    const campaign = async (giftCard: Json) => {
      const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Gifts', from_email: 'hr@example.com', gift_card_enabled: true, gift_card: giftCard } })).id as number;
      await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecard.id] });
      await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [{ email: to(), first_name: 'A' }, { email: to(), first_name: 'B' }] });
      const { token } = await issueToken({ models }, { accountId: account.accountId, purpose: 'gc_campaign_send', resourceId: String(id), now: new Date() });
      await ok('POST', '/campaign/send', { campaignid: id, gc_confirmation_token: token });
      const done = await eventually(() => ok('GET', `/campaign/findOne/id/${id}`), (c) => c.status !== 'sending', 30_000, 100);
      expect(done).to.deep.include({ status: 'sent' });
      return id;
    };

    const manual = { product_id: 'manual:Hush:25', amount: 25 };
    const provider = { product_id: 'simulated:TARGET-US', amount: 40 };
    await sendGift(manual);
    const manualCampaign = await campaign(manual);
    await updateSettings(services, account.accountId, { provider_mode: 'provider' });
    await sendGift(provider);
    const providerCampaign = await campaign(provider);
    // The sandbox (manual mode: a TEST- code for a product of the live pool); its email goes to mail_sink.
    const sandboxWidget = await insertWidget(models, account.sandboxAccountId);
    const sandboxEcard = await insertEcard(models, account.sandboxAccountId, sandboxWidget.id);
    const sandboxEmail = await sendGift(manual, account.sandboxKey, sandboxEcard.id);

    // Each email's claim link, and behind it (the POST) the code and PIN it reveals.
    const mails = smtp.messages.filter((m) => m.to[0]?.endsWith(`@${domain}`));
    expect(mails).to.have.length(6);
    const [sunk, ...moreSunk] = await models.MailSinkMessage.findAll({ where: { account_id: account.sandboxAccountId } });
    expect(moreSunk).to.have.length(0);
    expect(sunk!.recipient).to.equal(sandboxEmail);
    const gifts = new Map<string, { token: string; code: string; pin: string | null }>();
    for (const [email, text] of [...mails.map((m) => [m.to[0]!, m.text] as const), [sandboxEmail, sunk!.text_body] as const]) {
      const link = claimLinkIn(text);
      expect(link, text).to.be.a('string');
      const token = link!.slice(link!.lastIndexOf('/') + 1);
      const page = await (await fetch(`${url}/g/${token}`, { method: 'POST' })).text();
      const [code, pin = null] = [...page.matchAll(/<p class="secret">([^<]+)<\/p>/g)].map((m) => m[1]!);
      expect(code, page).to.be.a('string');
      gifts.set(email, { token, code: code!, pin });
    }
    const revealed = [...gifts.values()];
    const tokens = revealed.map((g) => g.token);
    const secrets = [...new Set([...manualCodes, ...pins, ...revealed.map((g) => g.code)])];
    const everything = [...secrets, ...tokens];

    // Webhooks: the ecard_shared events (one per send-ecard send, one per campaign batch) delivered by this worker.
    const deliveries = await eventually(
      async () => {
        await drainOutbox(services);
        return models.WebhookDelivery.findAll({ where: { account_id: account.accountId } });
      },
      (list) => list.length === 4 && list.every((d) => d.status === 'Delivered'),
      20_000,
      100,
    );
    expect(deliveries.map((d) => d.status)).to.deep.equal(Array(4).fill('Delivered'));
    expect(receiver.at(path)).to.have.length(4);
    const accounts = [account.accountId, account.sandboxAccountId];
    return { account, receiver, path, api, responses, manualCodes, pins, mails, sandboxEmail, gifts, revealed, tokens, secrets, everything, deliveries, manualCampaign, providerCampaign, accounts };
  };

  describe('after manual and provider gifts on send-ecard and campaigns (and a sandbox gift)', () => {
    let run: Awaited<ReturnType<typeof giftRun>>;
    before(async () => {
      run = await giftRun();
    });

    it('each claim link’s POST reveals its gift’s code: the manual ones with their PINs, the provider’s SIM- codes, the sandbox’s TEST- code', async () => {
      const { manualCodes, pins, gifts, revealed, sandboxEmail } = run;
      expect(revealed.filter((g) => manualCodes.includes(g.code)).map((g) => g.pin).sort()).to.deep.equal(pins.slice(0, 3).sort());
      expect(revealed.filter((g) => g.code.startsWith('SIM-'))).to.have.length(3);
      expect(gifts.get(sandboxEmail)!.code).to.match(/^TEST-/);
    });

    it('no code, PIN or claim token is in a Temporal history of the sends, campaigns, fan-outs or deliveries', async () => {
      const { account, accounts, manualCampaign, providerCampaign, everything } = run;
      const found: string[] = [];
      // Temporal: every workflow of both accounts (sends, campaigns, webhook deliveries) and the campaigns' fan-outs.
      const client = await testClient();
      const queries = [
        ...accounts.map((id) => `CardAccountId = '${id}'`),
        ...[manualCampaign, providerCampaign].map((id) => `WorkflowId = '${campaignFanOutWorkflowId(account.accountId, id)}'`),
      ];
      const histories: string[] = [];
      for (const query of queries) {
        for await (const run of client.workflow.list({ query })) {
          histories.push(readable(await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory()));
        }
      }
      // 3 sends, 2 campaigns and their fan-outs, 4 deliveries; the payloads are readable (ids are in them).
      expect(histories.length).to.be.at.least(11);
      expect(histories.some((h) => h.includes('sendPk'))).to.equal(true);
      for (const [i, h] of histories.entries()) found.push(...leaks(`history ${i}`, h, everything));
      expect(found).to.deep.equal([]);
    });

    it('none is in the API’s or the worker’s logs', async () => {
      const { everything } = run;
      const found: string[] = [];
      // Logs (requests, the claim page's POSTs included, and the worker's activities).
      expect(lines.length).to.be.greaterThan(10);
      expect(lines.join('\n')).to.include('"path":"/g/****');
      found.push(...leaks('logs', lines.join('\n'), everything));
      expect(found).to.deep.equal([]);
    });

    it('no code or PIN is in an email or mail_sink, and a claim token only in its own email', async () => {
      const { mails, secrets, tokens, gifts, accounts, sandboxEmail } = run;
      const found: string[] = [];
      // SMTP: no code or PIN in any message (raw, and its decoded parts); a token only in its own email.
      const inMail = (m: ReceivedMail) => [m.raw, m.text, m.html].join('\n');
      for (const m of mails) {
        found.push(...leaks(`email to ${m.to[0]}`, inMail(m), secrets));
        found.push(...leaks(`email to ${m.to[0]}`, inMail(m), tokens.filter((t) => t !== gifts.get(m.to[0]!)!.token)));
      }
      // mail_sink: the sandbox email holds its own claim link (the sink stands in for its inbox), nothing else.
      const sinkRows = await models.MailSinkMessage.findAll({ where: { account_id: accounts }, raw: true });
      found.push(...leaks('mail_sink', JSON.stringify(sinkRows), [...secrets, ...tokens.filter((t) => t !== gifts.get(sandboxEmail)!.token)]));
      expect(found).to.deep.equal([]);
    });

    it('none is in event_outbox, the webhook delivery log or the bodies the receiver got', async () => {
      const { accounts, deliveries, everything, receiver, path, api } = run;
      const found: string[] = [];
      // The outbox, the delivery log (entries and attempts) and the bodies the receiver got.
      found.push(...leaks('event_outbox', JSON.stringify(await models.OutboxEvent.findAll({ where: { account_id: accounts }, raw: true })), everything));
      found.push(...leaks('webhook_deliveries', JSON.stringify(deliveries.map((d) => d.get({ plain: true }))), everything));
      const attempts = await models.WebhookAttempt.findAll({ where: { delivery_id: deliveries.map((d) => d.id) }, raw: true });
      expect(attempts.length).to.be.at.least(4);
      found.push(...leaks('webhook_attempts', JSON.stringify(attempts), everything));
      found.push(...leaks('delivered bodies', JSON.stringify(receiver.at(path)), everything));
      for (const d of deliveries) found.push(...leaks(`delivery ${d.id} (API)`, JSON.stringify((await api('GET', `/webhook/deliveries/findOne/id/${d.id}`)).body), everything));
      expect(found).to.deep.equal([]);
    });

    it('none is in the stored sends, snapshots, share pages, campaigns or campaign recipients', async () => {
      const { account, accounts, everything, manualCampaign, providerCampaign } = run;
      const found: string[] = [];
      // What is stored of the sends: rows, rendered cards, snapshots; and each send's share page.
      const sends = await models.Send.findAll({ where: { account_id: accounts } });
      expect(sends).to.have.length(7);
      const sendPks = sends.map((s) => s.id);
      found.push(...leaks('sends', JSON.stringify(sends.map((s) => s.get({ plain: true }))), everything));
      found.push(...leaks('send_recipients', JSON.stringify(await models.SendRecipient.findAll({ where: { send_id: sendPks }, raw: true })), everything));
      const refs = await models.SendDesignRef.findAll({ where: { send_id: sendPks }, raw: true });
      expect(refs.length).to.be.at.least(1);
      const snapshots = [
        ...(await models.SendSnapshot.findAll({ where: { send_id: sendPks }, raw: true })),
        ...(await models.SendDesign.findAll({ where: { id: refs.map((r) => r.design_id) }, raw: true })),
      ];
      found.push(...leaks('send_snapshots', JSON.stringify(snapshots), everything));
      for (const s of sends) {
        const page = await fetch(`${url}/e/${s.stat_vanity_id}`);
        expect(page.status, `share page of send ${s.id}`).to.equal(200);
        found.push(...leaks(`share page ${s.stat_vanity_id}`, await page.text(), everything));
      }
      found.push(...leaks('campaigns', JSON.stringify(await models.Campaign.findAll({ where: { account_id: account.accountId }, raw: true })), everything));
      found.push(...leaks('campaign_recipients', JSON.stringify(await models.CampaignRecipient.findAll({ where: { campaign_id: [manualCampaign, providerCampaign] }, raw: true })), everything));
      expect(found).to.deep.equal([]);
    });

    it('none is in a response of the run, the gift-card endpoints read with both keys included', async () => {
      const { account, api, responses, manualCampaign, everything } = run;
      const found: string[] = [];
      // The gift-card endpoints (both keys), then every response of the run.
      for (const key of [account.liveKey, account.sandboxKey]) {
        for (const route of ['getSettings', 'listProducts', 'listOrders?perPage=100', `listOrders?campaign_id=${manualCampaign}`, 'getRules', 'rewardInventory', 'analytics']) {
          if (key === account.sandboxKey && route.includes('campaign_id')) continue;
          expectSuccess(await api('GET', `/gift-card/${route}`, undefined, key));
        }
      }
      for (const { what, res } of responses) found.push(...leaks(`response ${what}`, JSON.stringify(res.body), everything));
      expect(found).to.deep.equal([]);
    });

    it('gift_orders and gift_codes hold none of them', async () => {
      const { accounts, everything } = run;
      const found: string[] = [];
      // The rows themselves: only ciphertexts (which differ from the codes), the token's SHA-256, last 4s.
      const orders = await models.GiftOrder.findAll({ where: { account_id: accounts }, raw: true });
      expect(orders).to.have.length(7);
      found.push(...leaks('gift_orders', JSON.stringify(orders), everything));
      const codes = await models.GiftCode.findAll({ where: { account_id: accounts }, raw: true });
      found.push(...leaks('gift_codes', JSON.stringify(codes), everything));
      expect(found).to.deep.equal([]);
    });

    it('listOrders shows each code and claim link as **** and its last 4, never a PIN', async () => {
      const { account, api, gifts, sandboxEmail } = run;
      // Masking: listOrders shows `****` + the last 4 of each code and claim link, never a PIN.
      const listed = expectSuccess(await api('GET', '/gift-card/listOrders?perPage=100')) as Json[];
      expect(listed).to.have.length(6);
      for (const item of listed) {
        const gift = gifts.get(item.recipient_email as string)!;
        expect(item).to.deep.include({ code_masked: `****${gift.code.slice(-4)}`, claim_url_masked: `****${gift.token.slice(-4)}`, claim_status: 'claimed' });
        expect(Object.keys(item).some((k) => k.includes('pin'))).to.equal(false);
      }
      const [sandboxListed] = expectSuccess(await api('GET', '/gift-card/listOrders', undefined, account.sandboxKey)) as Json[];
      expect(sandboxListed).to.deep.include({ code_masked: `****${gifts.get(sandboxEmail)!.code.slice(-4)}` });
    });

    it('at rest each code and PIN is encrypted and each claim link is its SHA-256; three manual codes are taken', async () => {
      const { account, accounts, gifts, manualCodes, pins } = run;
      const orders = await models.GiftOrder.findAll({ where: { account_id: accounts }, raw: true });
      const codes = await models.GiftCode.findAll({ where: { account_id: accounts }, raw: true });
      // At rest: each code and PIN encrypted (not the text, not its encoding), each link as its SHA-256.
      for (const o of orders) {
        const gift = gifts.get(o.recipient_email!)!;
        expect(o.claim_token_hash).to.equal(createHash('sha256').update(gift.token).digest('hex'));
        if (o.code_id === null) {
          expect(o.code_ciphertext).to.be.a('string').and.not.equal(gift.code);
          expect(o.code_ciphertext).not.to.include(Buffer.from(gift.code).toString('base64'));
        }
      }
      for (const c of codes) {
        const i = manualCodes.findIndex((code) => code.endsWith(c.code_last4!));
        expect(c.code_ciphertext).not.to.equal(manualCodes[i]);
        expect(c.code_ciphertext).not.to.include(Buffer.from(manualCodes[i]!).toString('base64'));
        expect(c.pin_ciphertext).to.be.a('string').and.not.equal(pins[i]);
        expect(c.pin_ciphertext).not.to.equal(c.code_ciphertext);
      }
      expect(await models.GiftCode.count({ where: { account_id: account.accountId, order_id: { [Op.ne]: null } } })).to.equal(3);
    });
  });
});
