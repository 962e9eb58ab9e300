// Mocha root hooks: real parts start on first use and stop once, after the whole run; a file's own parts (onFileEnd)
// stop when the next file's first test starts.
import { runSuiteCleanup, testEnded, testStarting } from './cleanup.ts';

export const mochaHooks = {
  async beforeEach(this: Mocha.Context) {
    await testStarting(this.currentTest?.file);
  },
  afterEach(this: Mocha.Context) {
    testEnded(this.currentTest?.file);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await runSuiteCleanup();
  },
};
