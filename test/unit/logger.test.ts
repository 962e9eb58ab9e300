// Logged errors carry no data: no statement or bound values, addresses masked, URLs cut to scheme and host.
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../../lib/logger.ts';

describe('logged errors', () => {
  it('keep type, message and stack, but not a statement, its values, an address or a URL\'s path', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ logLevel: 'info' }, sink);
    const err = Object.assign(new Error('550 <bob.private@example.com> rejected at https://hooks.example/t/tok-123?x=1'), {
      sql: 'INSERT INTO sends (personal_message) VALUES (?)',
      parameters: ['Dear Bob, happy birthday'],
      code: 'E_TEST',
    });
    logger.error({ err }, 'unhandled error');
    logger.warn({ error: err }, 'Activity failed');
    await new Promise((r) => setImmediate(r));
    const all = lines.join('');
    expect(all).to.include('E_TEST').and.include('rejected at https://hooks.example').and.include('[email]');
    for (const leaked of ['bob.private', 'tok-123', 'INSERT INTO', 'happy birthday']) expect(all).not.to.include(leaked);
  });
});
