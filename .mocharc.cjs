// mocha's configuration. `npm test` runs the whole suite; TEST_PASS picks a part of it for CI's lanes (.ci/run):
//   database   what touches the database: CI runs it on MariaDB and on SQLite, side by side;
//   processes  what does not: Chromium pages, pure units, the entry points and cardsvc as processes, the dev server.
// Files of the second kind that still sit among the first skip themselves on MySQL (`if (mysqlUrl) this.skip()`).
// The workflow replay runs last in every process: it replays the histories that process recorded.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

// Paths (a folder ends in '/', a suffix starts with '*') of the files without the database: the Chromium pages are
// `<area>/*.browser.test.ts`, beside their area's other tests.
const WITHOUT_DATABASE = [
  '*.browser.test.ts',
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
  'test/widgets/send-crash.test.ts',
];
// Files of minutes ("a test that needs minutes of wall time belongs in the drills or the scale test", docs/decisions.md
// "CI (wave 4)"): each runs in the one pass its subject needs, as the drills and the scale test run on one database.
const ONE_DATABASE = {
  // SQLite's lock is its subject (a write lock held against test sends and replays; SQLITE_BUSY as a 503). MariaDB's
  // lock waits under racing writes stay in both passes (test/sends/rejections.test.ts).
  'test/webhooks/busy-database.test.ts': 'sqlite',
  // A gift campaign under worker deaths: its campaign path is drilled on MariaDB (drill 1), its orders run here.
  'test/rewards/crash.test.ts': 'sqlite',
  // Recipient-zone waves and the batching of outcome webhooks: the same claims and outbox as every campaign, which
  // both passes run; the production database gets the minutes-long runs.
  'test/campaigns/waves.test.ts': 'mysql',
  'test/webhooks/bulk-outcomes.test.ts': 'mysql',
};
const REPLAY = 'test/workflows/replay.last.ts';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
const listed = (list, file) => list.some((p) => (p.startsWith('*') ? file.endsWith(p.slice(1)) : p.endsWith('/') ? file.startsWith(p) : file === p));

const pass = process.env.TEST_PASS ?? 'all';
const all = testFiles('test').sort();
const mysql = (process.env.DATABASE_URL ?? '').startsWith('mysql://');
const parts = {
  all: () => all,
  database: () =>
    all.filter((f) => !listed(WITHOUT_DATABASE, f) && !(mysql && listed(DRILLED_ON_MARIADB, f)) && (ONE_DATABASE[f] ?? (mysql ? 'mysql' : 'sqlite')) === (mysql ? 'mysql' : 'sqlite')),
  processes: () => all.filter((f) => listed(WITHOUT_DATABASE, f)),
};
if (!Object.hasOwn(parts, pass)) throw new Error(`TEST_PASS=${pass}: expected one of ${Object.keys(parts).join(', ')}`);
const files = parts[pass]();

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
