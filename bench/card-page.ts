// P13: requests per second of the card page a recipient opens, `GET /e/<pageId>` through the API process (the
// recipient's row by its page id, the send, its snapshot, the sending widget's public link, the Handlebars render
// with the request's nonce), against node:http + mysql2 in a process of its own (bench/bare-card-page.ts) reading one
// row by the same key and writing the bytes the service served for that page once (stored in bench_card_pages at
// the pair's start), rounds alternated, both driven by bench/load.ts. Target ≥ 0.5.
// The page is that of a real send: an email-now send-ecard through the API, delivered by the worker process.
import { createAccount } from '../services/accounts.ts';
import { PAGES_TABLE, type BarePageSettings } from './bare-card-page.ts';
import { alternatedRates, benchEcard, freePort, startNodeProcess, type Pair } from './harness.ts';
import { getRate } from './load.ts';
import type { BenchContext } from './stack.ts';

const NONCE = /'nonce-([^']+)'/;

export const cardPagePair: Pair<BenchContext> = {
  name: 'p13-card-page',
  async run(ctx) {
    const { models, settings, api } = ctx;
    const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench P13', ownerEmail: `bench-page-${Date.now()}@example.com`, plan: 'enterprise' });
    const ecard = await benchEcard(models, accountId, 'Happy birthday, {{recipient_first_name}}');
    const res = await fetch(`${api.url}/v2/api/pub/ecard-actions/send-ecard`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${liveKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita Reader', recipientEmail: 'rita@bench.example.com', personalMessage: '<p>Many happy returns!</p>' }),
    });
    const answer = (await res.json()) as { sendId?: string; emailsSent?: number };
    if (res.status !== 200 || answer.emailsSent !== 1) throw new Error(`P13 send-ecard: status ${res.status}: ${JSON.stringify(answer)}`);
    const send = await models.Send.findOne({ where: { account_id: accountId, send_id: answer.sendId! }, rejectOnEmpty: true });
    const recipient = await models.SendRecipient.findOne({ where: { send_id: send.id }, rejectOnEmpty: true });
    if (!recipient.page_id) throw new Error(`P13: send ${send.send_id} has no page after its dispatch`);
    const pagePath = `/e/${recipient.page_id}`;

    // What the service serves for that page, stored as the bare side serves it.
    const page = async (url: string) => {
      const r = await fetch(url);
      const html = Buffer.from(await r.arrayBuffer());
      if (r.status !== 200) throw new Error(`P13 ${url}: status ${r.status}`);
      return { html, csp: r.headers.get('content-security-policy') ?? '' };
    };
    const served = await page(`${api.url}${pagePath}`);
    await models.sequelize.query(`CREATE TABLE IF NOT EXISTS ${PAGES_TABLE} (page_id VARCHAR(32) PRIMARY KEY, html MEDIUMBLOB NOT NULL, csp TEXT NOT NULL)`);
    await models.sequelize.query(`REPLACE INTO ${PAGES_TABLE} (page_id, html, csp) VALUES (?, ?, ?)`, { replacements: [recipient.page_id, served.html, served.csp] });

    const port = await freePort();
    const bareSettings: BarePageSettings = { port, databaseUrl: ctx.databaseUrl };
    const bare = await startNodeProcess({
      script: 'bench/bare-card-page.ts', env: { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_BARE_PAGE: JSON.stringify(bareSettings) },
      port, readyPath: '/healthz', logFile: ctx.logFile('bare-card-page.log'),
    });
    try {
      // Both serve the same bytes: the bare side the stored ones; the service the same page with its new nonce.
      const fromBare = await page(`${bare.url}${pagePath}`);
      const again = await page(`${api.url}${pagePath}`);
      const nonce = (csp: string) => NONCE.exec(csp)?.[1] ?? '';
      if (!fromBare.html.equals(served.html)) throw new Error('P13: the bare server did not serve the stored page');
      // The nonce is in the page as written and as Handlebars escapes it (`=` is `&#x3D;`).
      const withNonce = (html: string, from: string, to: string) => html.replaceAll(from, to).replaceAll(from.replaceAll('=', '&#x3D;'), to.replaceAll('=', '&#x3D;'));
      if (withNonce(again.html.toString('utf8'), nonce(again.csp), nonce(served.csp)) !== served.html.toString('utf8')) throw new Error('P13: the service served another page the second time (not only another nonce)');

      const side = (url: string) => (seconds: number) => getRate(`${url}${pagePath}`, seconds, settings.concurrency);
      const figures = await alternatedRates('P13', { name: 'card page', rate: side(api.url) }, { name: 'bare node:http + mysql2', rate: side(bare.url) }, settings);
      return [{ name: 'p13-card-page', compares: 'card page /e/<id> vs bare node:http + mysql2 serving the same bytes', target: '≥ 0.5', unit: 'req/s', ...figures, notes: { concurrency: settings.concurrency, pageBytes: served.html.length } }];
    } finally {
      await bare.stop();
    }
  },
};
