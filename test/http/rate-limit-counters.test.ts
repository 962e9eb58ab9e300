// The limiter's statements (services/rate-limit-counters.ts) on this database (SQLite by default, MariaDB with
// DATABASE_URL), by what they answer: they run through Sequelize's public `query`, and what they rely on there (on
// SQLite, a statement that does not start with `INSERT INTO` answering its RETURNING rows; on MySQL, QueryTypes.INSERT
// answering the insert id and the rows changed) fails here if the library changes under them.
import { expect } from 'chai';
import { addToWindows, HOUR, MINUTE, takeBack, type Windows } from '../../services/rate-limit-counters.ts';
import type { Models } from '../../models/index.ts';
import { newAccount } from '../helpers/api.ts';
import { testModels } from '../helpers/stack.ts';

const HOUR_START = 2_000_001_600; // a whole hour (seconds since the epoch)

async function counts(models: Models, apiKeyId: number): Promise<Array<[number, number, number]>> {
  const [rows] = await models.sequelize.query('SELECT window_seconds, window_start, count FROM rate_limit_counters WHERE api_key_id = ? ORDER BY window_seconds, window_start', {
    replacements: [apiKeyId],
  });
  return (rows as Array<Record<string, unknown>>).map((r) => [Number(r.window_seconds), Number(r.window_start), Number(r.count)]);
}

describe('the rate limiter\'s statements (addToWindows, takeBack) on this database', function () {
  this.timeout(60_000);
  let models: Models;
  let apiKeyId: number;
  const windows = (perMinute: number, perHour: number, minute = 0): Windows => ({
    apiKeyId,
    hourStart: HOUR_START,
    minuteStart: HOUR_START + minute * MINUTE,
    limits: { perMinute, perHour },
  });
  beforeEach(async () => {
    models = await testModels();
    apiKeyId = (await newAccount(models)).liveKeyId;
  });

  it('makes both windows\' rows, then adds to them, answering each window\'s count after the add', async () => {
    const add = addToWindows(models.sequelize);
    expect(await add(windows(100, 1000), 3)).to.deep.equal({ hour: 3, minute: 3 });
    expect(await add(windows(100, 1000), 4)).to.deep.equal({ hour: 7, minute: 7 });
    expect(await counts(models, apiKeyId)).to.deep.equal([
      [MINUTE, HOUR_START, 7],
      [HOUR, HOUR_START, 7],
    ]);
  });

  it('at the minute\'s limit: the add that reaches it answers the limit, the next is refused there (null, nothing added) and counted in the hour', async () => {
    const add = addToWindows(models.sequelize);
    expect(await add(windows(5, 1000), 2)).to.deep.equal({ hour: 2, minute: 2 });
    expect(await add(windows(5, 1000), 3)).to.deep.equal({ hour: 5, minute: 5 });
    expect(await add(windows(5, 1000), 1)).to.deep.equal({ hour: 6, minute: null });
    expect(await counts(models, apiKeyId)).to.deep.equal([
      [MINUTE, HOUR_START, 5],
      [HOUR, HOUR_START, 6],
    ]);
  });

  it('at the hour\'s limit: refused there while the minute counts it; refused by both, nothing changes', async () => {
    const add = addToWindows(models.sequelize);
    expect(await add(windows(10, 6), 6)).to.deep.equal({ hour: 6, minute: 6 });
    // The next minute of the same hour: a new minute row, the hour full.
    expect(await add(windows(10, 6, 1), 1)).to.deep.equal({ hour: null, minute: 1 });
    expect(await add(windows(10, 6, 1), 10)).to.deep.equal({ hour: null, minute: null });
    expect(await counts(models, apiKeyId)).to.deep.equal([
      [MINUTE, HOUR_START, 6],
      [MINUTE, HOUR_START + MINUTE, 1],
      [HOUR, HOUR_START, 6],
    ]);
  });

  it('concurrent adds of one key never pass a limit: each count is answered once, up to the limit exactly', async () => {
    const add = addToWindows(models.sequelize);
    const answers = await Promise.all(Array.from({ length: 40 }, () => add(windows(15, 1000), 1)));
    const minutes = answers.map((a) => a.minute).filter((m) => m !== null);
    expect(minutes.sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(answers.map((a) => a.hour).sort((x, y) => x! - y!)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await counts(models, apiKeyId)).to.deep.equal([
      [MINUTE, HOUR_START, 15],
      [HOUR, HOUR_START, 40],
    ]);
  });

  it('takeBack takes counts out of the named windows only; the next add counts on from there', async () => {
    const add = addToWindows(models.sequelize);
    await add(windows(100, 1000), 10);
    await takeBack(models.sequelize)(apiKeyId, [{ seconds: MINUTE, start: HOUR_START }], 4);
    expect(await counts(models, apiKeyId)).to.deep.equal([
      [MINUTE, HOUR_START, 6],
      [HOUR, HOUR_START, 10],
    ]);
    expect(await add(windows(100, 1000), 1)).to.deep.equal({ hour: 11, minute: 7 });
  });
});
