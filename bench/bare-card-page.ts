// P13's baseline: node:http and mysql2, no other layer, in a process of its own. `GET /e/<pageId>` reads the row of
// bench_card_pages the pair stored for that page (the bytes and Content-Security-Policy the service served for it
// once) by its key and writes them with the service's headers. A pool as large as the service's (lib/db.ts).
// Started by bench/card-page.ts with its settings in BENCH_BARE_PAGE.
import { createServer } from 'node:http';
import { createPool, type RowDataPacket } from 'mysql2/promise';

export interface BarePageSettings {
  port: number;
  databaseUrl: string;
}

export const PAGES_TABLE = 'bench_card_pages';

async function serve(s: BarePageSettings): Promise<void> {
  const pool = createPool({ uri: s.databaseUrl, connectionLimit: 10, timezone: 'Z', charset: 'utf8mb4' });
  const server = createServer((req, res) => {
    const page = /^\/e\/([0-9A-Za-z]{20,32})$/.exec(req.url ?? '');
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (!page || req.method !== 'GET') {
      res.writeHead(404).end();
      return;
    }
    pool.query<RowDataPacket[]>(`SELECT html, csp FROM ${PAGES_TABLE} WHERE page_id = ?`, [page[1]]).then(
      ([rows]) => {
        const row = rows[0] as { html: Buffer; csp: string } | undefined;
        if (!row) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': row.html.length, 'content-security-policy': row.csp, 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
        res.end(row.html);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      },
    );
  });
  // As the service's server keeps connections (api/server.ts).
  server.keepAliveTimeout = 65_000;
  server.listen(s.port, '127.0.0.1');
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void pool.end();
  });
}

// Imported by the pair for its settings' shape and the table's name; serving only as the bare process.
if (process.env.BENCH_BARE_PAGE) await serve(JSON.parse(process.env.BENCH_BARE_PAGE) as BarePageSettings);
