// What a cardsvc command gets: its output channel and the process's services (database opened on first use).
import type { Services } from '../app/services.ts';
import type { Config } from '../lib/config.ts';
import type { Output } from './output.ts';

export interface CommandContext {
  config: Config;
  out: Output;
  /** The one services object (app/services.ts), without Temporal: built on first use. */
  services(): Promise<Services>;
}
