// What a cardsvc command gets: its output channel, its input and the process's services (database opened on first use).
import type { Services } from '../app/services.ts';
import type { Config } from '../lib/config.ts';
import type { Output } from './output.ts';

/**
 * Where one run of the command reads and writes: the process's own environment and streams (bin/cardsvc.ts), or a
 * test's buffers, so the suite can run a command in its own process without a Node start per call.
 */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdin: AsyncIterable<Uint8Array | string>;
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  env: process.env,
  stdin: process.stdin,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

export interface CommandContext {
  config: Config;
  out: Output;
  /**
   * `--password-stdin`'s password: typed twice at a prompt without echo when stdin is a terminal (cli/password-prompt.ts),
   * else everything on stdin, one trailing newline dropped (a password piped with echo).
   */
  readPassword(): Promise<string>;
  /** The one services object (app/services.ts), without Temporal: built on first use. */
  services(): Promise<Services>;
}

export async function readAll(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}
