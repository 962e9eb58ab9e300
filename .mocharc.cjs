// mocha's configuration. `npm test` runs the whole suite; TEST_PASS picks a part of it for CI's lanes (.ci/run):
//   database   what touches the database: CI runs it on MariaDB and on SQLite, side by side;
//   processes  what does not: Chromium pages, pure units, the entry points and cardsvc as processes, the dev server.
// TEST_SHARD=k/n runs the k-th of n shares of a pass (files dealt by their measured weight), each share in a process
// of its own with its own database and Temporal dev server, so CI can keep both cores busy while tests wait.
// Files of the second kind that still sit among the first skip themselves on MySQL (`if (mysqlUrl) this.skip()`).
// The workflow replay runs last in every process: it replays the histories that process recorded.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

// Paths (a folder ends in '/') of the files without the database.
const WITHOUT_DATABASE = [
  'test/browser/',
  'test/unit/',
  'test/runtime/cardsvc-process.test.ts',
  'test/runtime/entry-points.test.ts',
  'test/runtime/npm-start.test.ts',
  'test/runtime/temporal-dev-server.test.ts',
  'test/bounces/entry-point.test.ts',
  'test/rewards/keys.test.ts',
];
// Worker and API deaths that a drill (`npm run test:drills`, on MariaDB) also runs, the same path under a real kill:
// the MariaDB pass leaves them to the drills, the SQLite pass keeps them. Drill 1 kills mid-campaign, 2 mid-firing,
// 6 the worker at the SMTP server's data, 9 the API between a commit and its workflow start.
const DRILLED_ON_MARIADB = [
  'test/campaigns/crash.test.ts',
  'test/automations/crash.test.ts',
  'test/sends/crash.test.ts',
  'test/widget/send-crash.test.ts',
];
const REPLAY = 'test/workflows/replay.last.ts';

// Seconds a file took in CI (the timing reporter's table), for dealing files into shards; unlisted files count 8.
const WEIGHTS = {
  'test/campaigns/campaigns.test.ts': 120,
  'test/runtime/migrations.test.ts': 80,
  'test/campaigns/waves.test.ts': 80,
  'test/campaigns/crash.test.ts': 72,
  'test/rewards/crash.test.ts': 65,
  'test/webhooks/busy-database.test.ts': 85,
  'test/automations/crash.test.ts': 68,
  'test/sends/rejections.test.ts': 65,
  'test/sends/crash.test.ts': 70,
  'test/webhooks/bulk-outcomes.test.ts': 65,
  'test/automations/firing.test.ts': 37,
  'test/webhooks/failures.test.ts': 30,
  'test/bounces/bounces.test.ts': 29,
  'test/directory/concurrent-upserts.test.ts': 30,
  'test/isolation/matrix.test.ts': 27,
  'test/console/throttle.test.ts': 24,
  'test/automations/local-time.test.ts': 25,
  'test/campaigns/rules.test.ts': 23,
  'test/automations/api.test.ts': 21,
  'test/automations/schedules.test.ts': 23,
  'test/directory/members.test.ts': 20,
  'test/sends/starts.test.ts': 19,
  'test/ecards/card-fields-migration.test.ts': 15,
  'test/console/session.test.ts': 17,
  'test/widget/send-crash.test.ts': 17,
  'test/browser/widget-gallery.test.ts': 116,
  'test/browser/console-look.test.ts': 79,
  'test/browser/ecard-editor.test.ts': 66,
  'test/browser/webhooks-rewards-outbox.test.ts': 58,
  'test/runtime/cardsvc-process.test.ts': 51,
  'test/browser/campaigns.test.ts': 51,
  'test/browser/automations.test.ts': 49,
  'test/browser/keys-tokens-deletes.test.ts': 48,
  'test/browser/card-page.test.ts': 45,
  'test/runtime/npm-start.test.ts': 43,
  'test/runtime/entry-points.test.ts': 42,
  'test/rewards/keys.test.ts': 86,
};
const UNLISTED_WEIGHT = 8;

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
const listed = (list, file) => list.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

// Heaviest first, each to the lightest shard so far: the same files give the same shards on every machine.
function shardOf(files, shard) {
  const match = /^(\d+)\/(\d+)$/.exec(shard);
  if (!match || Number(match[1]) < 1 || Number(match[1]) > Number(match[2])) throw new Error(`TEST_SHARD=${shard}: expected k/n with 1 ≤ k ≤ n`);
  const [k, n] = [Number(match[1]), Number(match[2])];
  const loads = Array.from({ length: n }, () => ({ seconds: 0, files: [] }));
  const weighed = files.map((file) => ({ file, seconds: WEIGHTS[file] ?? UNLISTED_WEIGHT }));
  weighed.sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  for (const { file, seconds } of weighed) {
    const lightest = loads.reduce((min, load) => (load.seconds < min.seconds ? load : min));
    lightest.seconds += seconds;
    lightest.files.push(file);
  }
  return loads[k - 1].files.sort();
}

const pass = process.env.TEST_PASS ?? 'all';
const all = testFiles('test').sort();
const mysql = (process.env.DATABASE_URL ?? '').startsWith('mysql://');
const parts = {
  all: () => all,
  database: () => all.filter((f) => !listed(WITHOUT_DATABASE, f) && !(mysql && listed(DRILLED_ON_MARIADB, f))),
  processes: () => all.filter((f) => listed(WITHOUT_DATABASE, f)),
};
if (!Object.hasOwn(parts, pass)) throw new Error(`TEST_PASS=${pass}: expected one of ${Object.keys(parts).join(', ')}`);
const files = process.env.TEST_SHARD ? shardOf(parts[pass](), process.env.TEST_SHARD) : parts[pass]();

module.exports = {
  'node-option': ['import=tsx'],
  spec: [...files, REPLAY],
  require: ['test/helpers/root-hooks.ts'],
  reporter: 'test/helpers/timing-reporter.ts',
  timeout: 30000,
  slow: 2000,
  exit: true,
  sort: false,
};
