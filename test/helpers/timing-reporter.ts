// The spec reporter, followed by the slowest spec files (wall time, hooks included), so a run's log shows
// where the suite's time goes when CI's duration has to be planned.
import Mocha from 'mocha';

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } = Mocha.Runner.constants;
const SHOWN = 25;

export default class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options: Mocha.MochaOptions) {
    super(runner, options);
    const started = new Map<string, number>();
    const spent = new Map<string, number>();
    const fileOf = (suite: Mocha.Suite) => suite.file?.replace(`${process.cwd()}/`, '');
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      const file = fileOf(suite);
      if (file && !started.has(file)) started.set(file, performance.now());
    });
    runner.on(EVENT_SUITE_END, (suite: Mocha.Suite) => {
      const file = fileOf(suite);
      const begun = file ? started.get(file) : undefined;
      if (file && begun !== undefined && suite.parent?.root) spent.set(file, performance.now() - begun);
    });
    runner.once(EVENT_RUN_END, () => {
      const total = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
      const slowest = [...spent.entries()].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
      const lines = slowest.map(([file, ms]) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`);
      process.stdout.write(`\n  the ${slowest.length} slowest spec files of ${spent.size} (${(total / 60_000).toFixed(1)} min in all):\n${lines.join('\n')}\n`);
    });
  }
}
