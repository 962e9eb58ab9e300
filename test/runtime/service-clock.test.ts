import { expect } from 'chai';
import { testClockStack, type ClockStack } from '../helpers/clock.ts';

const HOUR = 3_600_000;

describe('the service clock with TEST_CLOCK', () => {
  let stack: ClockStack;
  before(async () => {
    stack = await testClockStack();
  });
  after(() => stack.stop());

  it('runs ahead by the offset a test stores, read fresh by the activity that computes a wait', async () => {
    const { clock } = stack.services;
    expect(Math.abs((await clock.read()).getTime() - Date.now())).to.be.below(1000);
    await stack.advance(3 * HOUR);
    // now() keeps the offset last read until the next read: a wait's activity reads it fresh.
    expect(Math.abs(clock.now().getTime() - Date.now())).to.be.below(1000);
    expect((await clock.read()).getTime() - Date.now()).to.be.within(3 * HOUR - 1000, 3 * HOUR + 1000);
    expect(clock.now().getTime() - Date.now()).to.be.within(3 * HOUR - 1000, 3 * HOUR + 1000);
    await stack.advance(HOUR);
    expect((await clock.read()).getTime() - Date.now()).to.be.within(4 * HOUR - 1000, 4 * HOUR + 1000);
  });

  it('is the system clock without TEST_CLOCK, whatever the table holds', async () => {
    const { testServices, testConfig } = await import('../helpers/stack.ts');
    const services = await testServices(await testConfig());
    expect(Math.abs((await services.clock.read()).getTime() - Date.now())).to.be.below(1000);
  });
});
