// A TCP proxy a test or drill owns between the service and MariaDB, so it can cut or stall the database without
// touching the shared server: `cut` resets every connection and refuses new ones; `stall` holds every byte (and new
// connections) until `restore`.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { onSuiteEnd } from './cleanup.ts';

export interface DbProxy {
  /** The proxied database URL (same credentials and database, the proxy's port). */
  url: string;
  cut(): void;
  stall(): void;
  restore(): void;
}

interface Link {
  client: Socket;
  upstream: Socket;
}

export async function startDbProxy(databaseUrl: string): Promise<DbProxy> {
  const target = new URL(databaseUrl);
  const upstreamPort = Number(target.port || 3306);
  let mode: 'pass' | 'cut' | 'stall' = 'pass';
  const links = new Set<Link>();
  let held: Socket[] = [];

  const flow = (link: Link) => {
    link.client.pipe(link.upstream);
    link.upstream.pipe(link.client);
  };
  const hold = (link: Link) => {
    link.client.unpipe(link.upstream);
    link.upstream.unpipe(link.client);
    link.client.pause();
    link.upstream.pause();
  };
  const open = (client: Socket) => {
    const upstream = connect(upstreamPort, target.hostname);
    const link = { client, upstream };
    links.add(link);
    const end = () => {
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    flow(link);
  };
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    if (mode === 'stall') {
      client.on('error', () => undefined);
      held.push(client);
      return;
    }
    open(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  onSuiteEnd(
    () =>
      new Promise<void>((resolve) => {
        for (const link of links) link.client.destroy();
        for (const client of held) client.destroy();
        server.close(() => resolve());
      }),
  );
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut() {
      mode = 'cut';
      for (const link of links) {
        link.client.resetAndDestroy();
        link.upstream.destroy();
      }
      links.clear();
    },
    stall() {
      mode = 'stall';
      for (const link of links) hold(link);
    },
    restore() {
      const was = mode;
      mode = 'pass';
      if (was === 'stall') {
        for (const link of links) flow(link);
        for (const client of held.splice(0)) if (!client.destroyed) open(client);
      }
      held = [];
    },
  };
}
