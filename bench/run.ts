// `npm run bench [-- --quick] [-- <pair> …]`: every pair of the decisions (Proof) on one stack (bench/stack.ts),
// each a ratio to a baseline measured in the same run, rounds alternated; results in bench/results/<name>.json
// (full run) or bench/results/quick/ (--quick) and a table at the end. Nothing is asserted.
// Settings (optional): DATABASE_URL (a database named cardsvc_bench…, dropped and recreated; default
// mysql://root@127.0.0.1:3306/cardsvc_bench_run), TEMPORAL_CLI_PATH, BENCH_CPU_PROF=<dir> (a CPU profile of each
// API process: each pair has one of its own, e.g. `npm run bench -- p2-accepts` profiles that pair),
// BENCH_WORKER_CPU_PROF=<dir> (one of the worker process over the run).
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../lib/paths.ts';
import { spread, type BenchSettings, type Pair, type PairResult } from './harness.ts';
import { startBenchStack, type BenchContext } from './stack.ts';
import { sendsPair } from './send-throughput.ts';
import { acceptsPair } from './accept.ts';
import { readsPair } from './read.ts';
import { campaignPair } from './campaign.ts';
import { webhooksPair } from './webhooks.ts';
import { rateLimitPair } from './rate-limit.ts';
import { upsertPair } from './upsert.ts';
import { automationPair } from './automation-firing.ts';
import { giftPair } from './gift-campaign.ts';
import { consolePair } from './console.ts';
import { directoryPair } from './directory-list.ts';
import { consolePagesPair } from './console-pages.ts';
import { embeddedReadPair } from './embedded-read.ts';
import { widgetSendsPair } from './widget-send.ts';
import { cardPagePair } from './card-page.ts';
import { topologyPair } from './topology.ts';
import { measureGeneratorCeiling } from './ceiling.ts';
import { SETTLE, settle, settledLine, type Settled } from './settle.ts';

// P11 runs right after P3, before any campaign or automation exists: the all-in-one's own worker and background
// passes then find nothing of the other pairs to act on.
const PAIRS: Array<Pair<BenchContext>> = [
  sendsPair, acceptsPair, readsPair, embeddedReadPair, widgetSendsPair, cardPagePair, campaignPair, webhooksPair, rateLimitPair, upsertPair, automationPair, giftPair, consolePair, directoryPair, consolePagesPair,
  // Last: its second worker's background passes would otherwise act on the other pairs' work.
  topologyPair,
];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));
const unknown = only.filter((name) => !PAIRS.some((p) => p.name === name));
if (unknown.length) {
  console.error(`bench: no pair named ${unknown.join(', ')} (pairs: ${PAIRS.map((p) => p.name).join(', ')})`);
  process.exit(2);
}
const settings: BenchSettings = quick
  ? { quick, seconds: 1, rounds: 1, warmupSeconds: 1, concurrency: 16 }
  : { quick, seconds: 5, rounds: 3, warmupSeconds: 5, concurrency: 32 };
const selected = PAIRS.filter((p) => only.length === 0 || only.includes(p.name));

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
console.log(`bench: ${quick ? 'quick' : 'full'} run: ${settings.rounds} pair(s) of rounds of ${settings.seconds} s after ${settings.warmupSeconds} s of warm-up, ${settings.concurrency} HTTP clients`);
const ctx = await startBenchStack(settings, (line) => console.log(`bench: ${line}`));
const machineAtStart = {
  cores: availableParallelism(),
  cpu: cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  date: new Date().toISOString(),
  database: `${ctx.config.database.dialect} ${((await ctx.models.sequelize.query('SELECT VERSION() AS v', { plain: true })) as { v: string } | null)?.v ?? ''}`,
  loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
};
// Interrupted (Ctrl-C, a CI timeout): the dev server runs in its own process group, so stop the stack first.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void ctx.close().finally(() => process.exit(130)));
}
console.log(`bench: stack ready after ${elapsed()} (logs in ${ctx.dataDir})`);
// What the load generator itself can drive here, before any pair: the HTTP pairs' figures are read against it.
const ceiling = await measureGeneratorCeiling(settings, ctx.logFile('hello.log')).catch(async (err: unknown) => {
  await ctx.close();
  throw err;
});
const ceilingLine = `generator ceiling: ${ceiling.helloPerSecond.toFixed(0)} req/s of a bare node:http "hello" route (autocannon in ${ceiling.mode === 'thread' ? 'a worker thread' : 'the main thread'} of the harness, ${ceiling.connections} connections, ${ceiling.seconds} s)`;
console.log(`bench: ${ceilingLine}`);
const machine = { ...machineAtStart, generatorCeiling: ceiling };

const results: Array<PairResult & { seconds: number }> = [];
const outDir = join(packageRoot, 'bench', 'results', ...(quick ? ['quick'] : []));
mkdirSync(outDir, { recursive: true });
let failed = 0;
try {
  for (const pair of selected) {
    // Each pair of a full run starts on a fresh API process (bench/stack.ts, freshApi) and a quiet machine, not on the
    // tail of the pair before it (bench/settle.ts). A quick run (CI's, beside the other lanes) checks that every pair
    // runs and gives a direction, no figure to quote: one API process for all, and it looks for two seconds at most.
    if (pair !== selected[0] && !quick) await ctx.freshApi();
    const settled: Settled = await settle(quick ? { ...SETTLE, capMs: 2000 } : SETTLE);
    console.log(`bench: ${settledLine(settled)}`);
    const pairStarted = performance.now();
    console.log(`bench: ${pair.name} (at ${elapsed()})`);
    try {
      for (const result of await pair.run(ctx)) {
        const seconds = Math.round((performance.now() - pairStarted) / 1000);
        results.push({ ...result, seconds });
        const { median, min, max } = spread(result.ratios);
        const file = {
          name: result.name, compares: result.compares, target: result.target,
          ratio: { median, min, max }, ratios: result.ratios, unit: result.unit, measured: result.measured, baseline: result.baseline, notes: result.notes,
          run: { quick, rounds: settings.rounds, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, concurrency: settings.concurrency, pairSeconds: seconds, settledBefore: settled },
          machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => Number(l.toFixed(2))) },
        };
        writeFileSync(join(outDir, `${result.name}.json`), `${JSON.stringify(file, null, 2)}\n`);
      }
    } catch (err) {
      // One pair's failure is reported and the others still run; the run exits 1 at the end.
      failed += 1;
      console.error(`bench: ${pair.name} failed: ${(err as Error).stack ?? String(err)}`);
    }
  }
} finally {
  await ctx.close();
}

const cell = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(n >= 10 ? 1 : 2));
const rows = results.map((r) => {
  const m = spread(r.measured.figures);
  const b = spread(r.baseline.figures);
  const ratio = spread(r.ratios);
  return [r.name, r.compares, `${cell(m.median)} / ${cell(b.median)} ${r.unit}`, `${ratio.median.toFixed(2)} (${ratio.min.toFixed(2)} – ${ratio.max.toFixed(2)})`, r.target, `${r.seconds} s`];
});
const header = ['pair', 'measured vs baseline', 'medians', 'ratio (min – max)', 'target', 'time'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n${rows.map(line).join('\n')}`);
console.log(`\nbench: ${ceilingLine}`);
console.log(`bench: ${results.length} results in ${outDir}; ${machine.cores} cores, node ${machine.node}, ${machine.database}, load ${machine.loadAverageAtStart.join(' ')} at start; ${elapsed()} in all`);
if (failed) {
  console.error(`bench: ${failed} pair module(s) failed`);
  process.exit(1);
}
