// P14: the console's GET pages at their default page size for an owner whose account holds 100,000 members and
// 100,000 sends (`--quick`: 1,000 of each), each page's median response time against the same page in an account
// with one member and one send, measured in the same run (ratio: small account's time / large account's time, so
// 1 means the page does not slow down with the account's size). The decided bound is absolute: each page at most
// 300 ms median at full size (the export: time to its first byte). Requests one at a time: a latency, not a rate.
import { createAccount } from '../services/accounts.ts';
import { setOwnerPassword, signedInPages } from '../test/helpers/console.ts';
import { benchEcard, spread, type Pair, type PairResult } from './harness.ts';
import type { BenchContext } from './stack.ts';

const CHUNK = 1000;
const BOUND_MS = 300;
const DAY_MS = 86_400_000;

interface SeededAccount {
  cookie: string;
  /** Ids the pages' paths name. */
  sendId: string;
  widgetId: number;
  recipientEmail: string;
  memberName: string;
}

/** The console's GET pages with their default page size; `{send}` and `{widget}` are filled from the account. */
export const P14_PAGES: ReadonlyArray<{ name: string; path: string; firstByte?: boolean }> = [
  { name: 'home', path: '/v2/console/' },
  { name: 'sends', path: '/v2/console/sends' },
  { name: 'sends-by-recipient', path: '/v2/console/sends?recipientEmail={recipient}' },
  { name: 'send', path: '/v2/console/sends/{send}' },
  { name: 'sends-export', path: '/v2/console/sends/export.csv', firstByte: true },
  { name: 'campaigns', path: '/v2/console/campaigns' },
  { name: 'automations', path: '/v2/console/automations' },
  { name: 'directory', path: '/v2/console/directory/members' },
  { name: 'directory-search', path: '/v2/console/directory/members?q={member}' },
  { name: 'departments', path: '/v2/console/directory/departments' },
  { name: 'widgets', path: '/v2/console/widgets' },
  { name: 'widget-stats', path: '/v2/console/widgets/{widget}/stats' },
  { name: 'ecards', path: '/v2/console/ecards' },
];

/** An account with `size` members and `size` sends (one recipient each) over the last 60 days, and its owner signed in. */
async function seedAccount(ctx: BenchContext, label: string, size: number): Promise<SeededAccount> {
  const { models, api } = ctx;
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const { accountId } = await createAccount(ctx, { name: `Bench P14 ${label}`, ownerEmail: `bench-p14-${label}-${stamp}@example.com`, plan: 'enterprise' });
  const email = await setOwnerPassword(models, accountId, 'bench console password');
  const ecards = [await benchEcard(models, accountId, 'Happy {{recipient_name}}'), await benchEcard(models, accountId, 'Thank you')];
  const now = Date.now();
  for (let i = 0; i < size; i += CHUNK) {
    const at = new Date();
    const count = Math.min(CHUNK, size - i);
    await models.TeamMember.bulkCreate(
      Array.from({ length: count }, (_, k) => {
        const j = i + k;
        return { account_id: accountId, email: `member${j}@p14.example.com`, employee_id: `E${j}`, first_name: `First${j}`, last_name: `Last${j % 997}`, job_position: null, date_of_birth: `19${70 + (j % 30)}-${String((j % 12) + 1).padStart(2, '0')}-${String((j % 28) + 1).padStart(2, '0')}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null, disabled: j % 20 === 0, created_at: at, updated_at: at };
      }),
    );
    const sends = await models.Send.bulkCreate(
      Array.from({ length: count }, (_, k) => {
        const j = i + k;
        const ecard = ecards[j % ecards.length]!;
        const sentAt = new Date(now - ((j * 7919) % (60 * DAY_MS)));
        return {
          send_id: crypto.randomUUID(), account_id: accountId, ecard_id: ecard.id, widget_id: ecard.widget_id, mode: 'email' as const, status: 'sent' as const, sandbox: false,
          sender_name: 'Bench', sender_email: 'bench@p14.example.com', personal_message: null, locale: 'en', merge_tags: null, override_props: null, send_at: sentAt,
          stat_vanity_id: `p14${j}x${stamp}`.slice(0, 32), opened_at: j % 3 === 0 ? sentAt : null, quota_month: null, quota_count: 1, emails_sent: 1, workflow_started: true,
          origin: (['single', 'widget', 'campaign', 'automation'] as const)[j % 4], created_at: sentAt, updated_at: sentAt,
        };
      }),
    );
    await models.SendRecipient.bulkCreate(
      sends.map((send, k) => ({ send_id: send.id, position: 0, recipient_name: `Recipient ${i + k}`, recipient_email: `recipient${i + k}@p14.example.com`, status: 'sent' as const, opened_at: send.opened_at, finished_at: send.send_at })),
    );
  }
  const last = await models.Send.findOne({ where: { account_id: accountId }, order: [['id', 'DESC']], rejectOnEmpty: true });
  const { browser } = await signedInPages(api.url, email, 'bench console password');
  return {
    cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    sendId: last.send_id,
    widgetId: ecards[0]!.widget_id,
    recipientEmail: `recipient${Math.floor(size / 2)}@p14.example.com`,
    memberName: `First${Math.floor(size / 3)}`,
  };
}

const pathFor = (template: string, account: SeededAccount) =>
  template.replace('{send}', account.sendId).replace('{widget}', String(account.widgetId)).replace('{recipient}', encodeURIComponent(account.recipientEmail)).replace('{member}', encodeURIComponent(account.memberName));

/** The median time of `requests` GETs one after another (the whole body, or its first chunk). */
async function medianMs(ctx: BenchContext, account: SeededAccount, page: (typeof P14_PAGES)[number], requests: number): Promise<number> {
  const url = `${ctx.api.url}${pathFor(page.path, account)}`;
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { Cookie: account.cookie }, redirect: 'manual' });
    if (res.status !== 200) throw new Error(`P14 ${page.name} (${url}): status ${res.status}`);
    if (page.firstByte) {
      const reader = res.body!.getReader();
      await reader.read();
      times.push(performance.now() - started);
      await reader.cancel();
    } else {
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
  }
  return spread(times).median;
}

export const consolePagesPair: Pair<BenchContext> = {
  name: 'p14-console-pages',
  async run(ctx) {
    const { settings } = ctx;
    const size = settings.quick ? 1000 : 100_000;
    const requests = settings.quick ? 5 : 11;
    const seeding = performance.now();
    const large = await seedAccount(ctx, 'large', size);
    const small = await seedAccount(ctx, 'small', 1);
    console.log(`  P14: two accounts seeded (${size} members and sends; 1 of each) in ${((performance.now() - seeding) / 1000).toFixed(0)} s`);
    const results: PairResult[] = [];
    for (const page of P14_PAGES) {
      // Warm-up: the first request of a page compiles its view and fills caches.
      await medianMs(ctx, large, page, 1);
      await medianMs(ctx, small, page, 1);
      const measured: number[] = [];
      const baseline: number[] = [];
      for (let round = 0; round < settings.rounds; round++) {
        measured.push(await medianMs(ctx, large, page, requests));
        baseline.push(await medianMs(ctx, small, page, requests));
      }
      const ratios = measured.map((ms, i) => baseline[i]! / ms);
      const median = spread(measured).median;
      console.log(`  P14 ${page.name}: ${median.toFixed(1)} ms median at ${size} (${spread(baseline).median.toFixed(1)} ms at 1)${median > BOUND_MS ? `: OVER the ${BOUND_MS} ms bound` : ''}`);
      results.push({
        name: `p14-${page.name}`,
        compares: `${page.path.replace(/\{\w+\}/g, '…')} ${page.firstByte ? 'first byte' : 'page'}, ${size} vs 1 member/send`,
        target: `≤ ${BOUND_MS} ms`,
        unit: 'ms',
        measured: { name: `${size} members and sends`, figures: measured },
        baseline: { name: 'one member and send', figures: baseline },
        ratios,
        notes: { size, requestsPerRound: requests, boundMs: BOUND_MS, withinBound: median <= BOUND_MS },
      });
    }
    return results;
  },
};
