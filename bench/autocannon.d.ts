// The part of autocannon's programmatic API the bench's load generator uses (bench/load.ts; the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface RequestParams {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string | Buffer | undefined;
  }
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request this connection makes (and once when it is built); returns what to send. */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams | null;
    /** Called with each answer (its status and body). */
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }
  /** One connection: `reqsMade` requests written so far; it closes once it has made `responseMax` (when set). */
  export interface Client extends EventEmitter {
    reqsMade: number;
    responseMax: number | undefined;
  }
  export interface Options {
    url: string;
    connections: number;
    duration: number;
    /** Milliseconds between samples; the run ends at the first sample after its clients are done. */
    sampleInt?: number;
    /** Seconds before an unanswered request counts as an error. */
    timeout?: number;
    requests: Request[];
    setupClient?: (client: Client) => void;
  }
  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    resets: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export interface Instance extends EventEmitter {
    stop(): void;
  }
  function autocannon(options: Options, done: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
