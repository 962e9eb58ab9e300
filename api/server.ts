// Listens with a built app and closes it cleanly.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface RunningServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function listen(app: Koa<never>, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
