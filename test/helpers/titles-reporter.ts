// A mocha reporter for `--dry-run`: prints every test's full title (describe chain › it), sorted, so a
// move or a split of tests can be checked as "moved, not weakened" (its output before and after). With
// `--reporter-option files=true` it prints the spec files in the order mocha runs them instead.
import Mocha from 'mocha';

const { EVENT_TEST_PASS, EVENT_TEST_PENDING, EVENT_SUITE_BEGIN, EVENT_RUN_END } = Mocha.Runner.constants;

export default class TitlesReporter {
  constructor(runner: Mocha.Runner, options: { reporterOptions?: Record<string, unknown> }) {
    const files = options.reporterOptions?.files === true || options.reporterOptions?.files === 'true';
    const titles: string[] = [];
    const order: string[] = [];
    const add = (test: Mocha.Test) => titles.push(test.titlePath().join(' › '));
    runner.on(EVENT_TEST_PASS, add);
    runner.on(EVENT_TEST_PENDING, add);
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      const file = suite.file?.replace(`${process.cwd()}/`, '');
      if (file && order.at(-1) !== file) order.push(file);
    });
    runner.once(EVENT_RUN_END, () => {
      const lines = files ? order : titles.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      process.stdout.write(lines.map((line) => `${line}\n`).join(''));
    });
  }
}
