// P3: requests per second of two authenticated reads through the API process with a full-access key, each as a
// ratio to the bare handler (bench/bare-server.ts: Koa + mysql2 in its own process) running the same statements:
// - `GET /v2/api/ecard/findOne/id/{id}` vs `SELECT <the eCard's columns> FROM ecards WHERE id = ? AND account_id = ?`;
// - `GET /v2/api/widget/search` (a page of 20) vs the statements the service runs for that page (the count, the
//   page, the priced eCards of its widgets).
// Both sides answer the same rows (checked before measuring); both driven by the load generator (bench/load.ts).
import { createAccount } from '../services/accounts.ts';
import { newVanityId } from '../services/widgets/admin/widgets.ts';
import { PER_PAGE, type BareSettings } from './bare-server.ts';
import { alternatedRates, freePort, startNodeProcess, type NodeProcess, type Pair } from './harness.ts';
import { getRate } from './load.ts';
import type { BenchContext } from './stack.ts';

/** The bare process on its settings. */
export async function startBare(ctx: BenchContext, settings: Omit<BareSettings, 'port' | 'databaseUrl'>): Promise<NodeProcess> {
  const port = await freePort();
  const bare: BareSettings = { ...settings, port, databaseUrl: ctx.databaseUrl };
  return startNodeProcess({
    script: 'bench/bare-server.ts', env: { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_BARE: JSON.stringify(bare) },
    port, readyPath: '/healthz', logFile: ctx.logFile('bare.log'),
  });
}

export const readsPair: Pair<BenchContext> = {
  name: 'p3-reads',
  async run(ctx) {
    const { models, settings, api } = ctx;
    const widgetCount = settings.quick ? PER_PAGE : 60;
    // The account read and another, each with widgetCount widgets of three eCards, one of them priced.
    const stamp = Date.now();
    const { accountId, liveKey } = await createAccount(ctx, { name: 'Bench P3', ownerEmail: `bench-read-${stamp}@example.com`, plan: 'enterprise' });
    const { accountId: neighbourId } = await createAccount(ctx, { name: 'Neighbour P3', ownerEmail: `bench-read-n-${stamp}@example.com`, plan: 'enterprise' });
    for (const account of [accountId, neighbourId]) {
      await models.Widget.bulkCreate(Array.from({ length: widgetCount }, (_, i) => ({ account_id: account, vanity_id: newVanityId(), name: `Widget ${i}`, wconfig: { theme: 'light', columns: 3 } })));
      const widgets = await models.Widget.findAll({ where: { account_id: account }, attributes: ['id'], order: [['id', 'ASC']] });
      await models.Ecard.bulkCreate(
        widgets.flatMap((widget, i) =>
          [0, 1, 2].map((j) => ({
            account_id: account, widget_id: widget.id, vanity_id: newVanityId(), name: `eCard ${i}.${j}`, email_subject: 'Greetings from {{sender_name}}', header: 'Hello',
            details: '<p>Dear {{recipient_name}}, greetings from {{sender_name}}.</p>', ecard_link: null, url_redirect_after_send: null, ecardbrandid: null, ecard_mode: null,
            envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null, self_hosted_url: null, price: j === 0 ? '5.00' : null,
          })),
        ),
      );
    }
    const ecard = (await models.Ecard.findOne({ where: { account_id: accountId }, order: [['id', 'DESC']] }))!;
    const columns = (attributes: Record<string, { field?: string | undefined }>) => Object.values(attributes).map((a) => a.field!);
    const baseline = await startBare(ctx, { accountId, ecardColumns: columns(models.Ecard.getAttributes()), widgetColumns: columns(models.Widget.getAttributes()) });
    try {
      type Request = { url: string; headers?: Record<string, string> };
      const auth = { Authorization: `Bearer ${liveKey}` };
      const service = { findOne: { url: `${api.url}/v2/api/ecard/findOne/id/${ecard.id}`, headers: auth }, search: { url: `${api.url}/v2/api/widget/search?page=1&perPage=${PER_PAGE}`, headers: auth } };
      const bare = { findOne: { url: `${baseline.url}/ecard/${ecard.id}` }, search: { url: `${baseline.url}/widgets?page=1` } };
      const json = async (request: Request) => (await (await fetch(request.url, { headers: request.headers ?? {} })).json()) as { data: unknown };
      const one = [(await json(service.findOne)).data, await json(bare.findOne)] as Array<{ id: number }>;
      const pages = [(await json(service.search)).data, (await json(bare.search)).data] as Array<Array<{ id: number }>>;
      if (one[0]!.id !== ecard.id || one[1]!.id !== ecard.id) throw new Error(`P3 findOne: the service answered eCard ${one[0]!.id}, the bare handler ${one[1]!.id}, for ${ecard.id}`);
      if (pages[0]!.length !== PER_PAGE || pages[0]!.map((w) => w.id).join() !== pages[1]!.map((w) => w.id).join()) throw new Error('P3 widget search: the service and the bare handler answered different pages');

      const rate = (request: Request) => (seconds: number) => getRate(request.url, seconds, settings.concurrency, request.headers);
      const notes = { concurrency: settings.concurrency, widgets: widgetCount };
      const findOne = await alternatedRates('P3 findOne', { name: 'API findOne', rate: rate(service.findOne) }, { name: 'bare Koa + mysql2', rate: rate(bare.findOne) }, settings);
      const search = await alternatedRates('P3 widget search', { name: 'API widget search', rate: rate(service.search) }, { name: 'bare Koa + mysql2', rate: rate(bare.search) }, settings);
      return [
        { name: 'p3-findone', compares: 'authenticated findOne vs bare Koa + mysql2', target: '≥ 0.5', unit: 'req/s', ...findOne, notes },
        { name: 'p3-widget-search', compares: 'widget search (page of 20) vs bare Koa + mysql2', target: '≥ 0.4 (issue 17)', unit: 'req/s', ...search, notes },
      ];
    } finally {
      await baseline.stop();
    }
  },
};
