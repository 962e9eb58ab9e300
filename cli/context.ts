// What a cardsvc command gets: its output channel and the database, opened on first use.
import type { Config } from '../lib/config.ts';
import type { Models } from '../models/index.ts';
import type { Output } from './output.ts';

export interface CommandContext {
  config: Config;
  out: Output;
  models(): Promise<Models>;
}
