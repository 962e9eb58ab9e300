// Mocha root hooks: real parts start on first use and stop once, after the whole run.
import { runSuiteCleanup } from './cleanup.ts';

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await runSuiteCleanup();
  },
};
