import { expect } from 'chai';
import { inClockWindow } from '../../bench/clock-window.ts';

const at = (clock: string) => Date.parse(`2026-12-05T${clock}Z`);

describe('unit: bench process-cpu summary window (UTC clock times)', () => {
  it('selects the times between --from and --to, both ends included', () => {
    expect(['04:07:25', '04:08:00', '04:10:25'].map((c) => inClockWindow(at(c), '04:07:25', '04:10:25'))).to.deep.equal([true, true, true]);
    expect(['04:07:24', '04:10:26', '23:00:00'].map((c) => inClockWindow(at(c), '04:07:25', '04:10:25'))).to.deep.equal([false, false, false]);
  });

  it('a window crossing midnight selects the times before and after midnight, and nothing outside it', () => {
    expect(['23:59:00', '23:59:59', '00:00:00', '00:01:00'].map((c) => inClockWindow(at(c), '23:59:00', '00:01:00'))).to.deep.equal([true, true, true, true]);
    expect(['23:58:59', '00:01:01', '12:00:00'].map((c) => inClockWindow(at(c), '23:59:00', '00:01:00'))).to.deep.equal([false, false, false]);
  });

  it('the default window (00:00:00 to 23:59:59) selects every second of the day', () => {
    for (const c of ['00:00:00', '12:34:56', '23:59:59']) expect(inClockWindow(at(c), '00:00:00', '23:59:59'), c).to.equal(true);
  });
});
