// Listens with a built app and closes it cleanly.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface RunningServer {
  port: number;
  url: string;
  /** Stops taking connections, lets requests in flight finish (at most `graceMs`, default 10 s), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/**
 * `keepAliveTimeoutMs`: how long an idle kept-alive connection stays open (Node's default of 5 s is shorter than
 * a load balancer's idle timeout, so a reused connection could be reset between two calls); the headers timeout
 * must be longer than it.
 */
export async function listen(app: Koa<never>, port: number, host = '0.0.0.0', keepAliveTimeoutMs = 65_000): Promise<RunningServer> {
  const server = app.listen(port, host);
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.headersTimeout = keepAliveTimeoutMs + 1000;
  await once(server, 'listening');
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    // A graceful stop: no new connections, idle ones closed at once and as they become idle, requests in flight
    // answered; whatever is still open after `graceMs` is cut.
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close((err) => {
          clearInterval(sweep);
          clearTimeout(cut);
          if (err) reject(err);
          else resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
