// mocha's configuration. `npm test` runs the whole suite; TEST_PASS picks a part of it for CI's lanes (.ci/run):
//   database   what touches the database: CI runs it once on MariaDB and once on SQLite, side by side;
//   processes  what does not: Chromium pages, pure units, the entry points and cardsvc as processes, the dev server.
// Files of the second kind that still sit among the first skip themselves on MySQL (`if (mysqlUrl) this.skip()`).
// The workflow replay runs last in every pass but MariaDB's: it replays the histories its own process recorded.
const WITHOUT_DATABASE = [
  'test/browser/**/*.test.ts',
  'test/unit/**/*.test.ts',
  'test/runtime/cardsvc-process.test.ts',
  'test/runtime/entry-points.test.ts',
  'test/runtime/npm-start.test.ts',
  'test/runtime/temporal-dev-server.test.ts',
  'test/bounces/entry-point.test.ts',
];
const EVERYTHING = 'test/**/*.test.ts';
const REPLAY = 'test/workflows/replay.last.ts';

const pass = process.env.TEST_PASS ?? 'all';
const parts = {
  all: { spec: [EVERYTHING, REPLAY] },
  database: { spec: [EVERYTHING, REPLAY], ignore: WITHOUT_DATABASE },
  processes: { spec: [...WITHOUT_DATABASE, REPLAY] },
};
if (!Object.hasOwn(parts, pass)) throw new Error(`TEST_PASS=${pass}: expected one of ${Object.keys(parts).join(', ')}`);

module.exports = {
  'node-option': ['import=tsx'],
  ...parts[pass],
  require: ['test/helpers/root-hooks.ts'],
  reporter: 'test/helpers/timing-reporter.ts',
  timeout: 30000,
  slow: 2000,
  exit: true,
  sort: false,
};
