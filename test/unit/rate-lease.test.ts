import { expect } from 'chai';
import { blockOf, leaseSize, MAX_BLOCK } from '../../services/rate-lease.ts';

describe('the rate limiter’s lease size', () => {
  const minute = (limit: number, count: number) => ({ limit, count });

  it('is 1 % of a window’s limit, at least 1 and at most MAX_BLOCK', () => {
    expect(blockOf(120)).to.equal(1);
    expect(blockOf(199)).to.equal(1);
    expect(blockOf(1000)).to.equal(10);
    expect(blockOf(3000)).to.equal(30);
    expect(blockOf(1_000_000_000)).to.equal(MAX_BLOCK);
  });

  it('leases a whole block while the remaining count is at least processes × block', () => {
    expect(leaseSize(1, [minute(1000, 0)], 2)).to.equal(10);
    expect(leaseSize(1, [minute(1000, 980)], 2)).to.equal(10);
  });

  it('shrinks to 1 once the remaining count is below processes × block', () => {
    expect(leaseSize(1, [minute(1000, 981)], 2)).to.equal(1);
    expect(leaseSize(1, [minute(1000, 999)], 2)).to.equal(1);
    // More processes shrink it earlier.
    expect(leaseSize(1, [minute(1000, 961)], 4)).to.equal(1);
    expect(leaseSize(1, [minute(1000, 960)], 4)).to.equal(10);
  });

  it('takes the smaller block of the two windows, so the window nearer its limit decides', () => {
    expect(leaseSize(1, [minute(1000, 0), minute(100_000, 0)], 2)).to.equal(10);
    expect(leaseSize(1, [minute(1000, 0), minute(100_000, 99_990)], 2)).to.equal(1);
    // The free plan's 120 a minute is counted one by one, as without leases.
    expect(leaseSize(1, [minute(120, 0), minute(10_000, 0)], 2)).to.equal(1);
  });

  it('never leases fewer than the requests waiting', () => {
    expect(leaseSize(25, [minute(1000, 0)], 2)).to.equal(25);
    expect(leaseSize(7, [minute(1000, 995)], 2)).to.equal(7);
  });
});
