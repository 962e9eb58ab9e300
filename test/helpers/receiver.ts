// A real HTTP receiver on loopback for webhook tests: records every request and answers as the test says.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onSuiteEnd } from './cleanup.ts';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:4567 */
  url: string;
  requests: ReceivedRequest[];
  /** Requests to one path (each test uses its own path). */
  at(path: string): ReceivedRequest[];
  /** How a path answers its n-th request (1-based); 200 when unset. */
  on(path: string, reply: (n: number) => Reply): void;
}

let shared: Promise<Receiver> | undefined;

export function testReceiver(): Promise<Receiver> {
  shared ??= (async () => {
    const requests: ReceivedRequest[] = [];
    const replies = new Map<string, (n: number) => Reply>();
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() });
        const reply: Reply = (replies.get(path) ?? (() => ({ status: 200 })))(requests.filter((r) => r.path === path).length);
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(reply.status, reply.headers ?? {});
          res.end(reply.body ?? '');
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onSuiteEnd(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      requests,
      at: (path) => requests.filter((r) => r.path === path),
      on: (path, reply) => replies.set(path, reply),
    };
  })();
  return shared;
}
