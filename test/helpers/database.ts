// Databases for tests: a fresh SQLite file, or a scratch database on the suite's MySQL server.
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { mysqlUrl, tempDir } from './env.ts';

/** A DATABASE_URL of a new, empty SQLite file. */
export function freshSqliteUrl(): string {
  return `sqlite:${join(tempDir(), 'test.sqlite')}`;
}

/** Creates an empty database beside the suite's MySQL database; returns its URL and a drop function. */
export async function scratchMysqlDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1)}_scratch_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const server = new URL(baseUrl);
  server.pathname = '/';
  const admin = await createConnection({ uri: server.toString() });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const conn = await createConnection({ uri: server.toString() });
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

/** The suite's shared database: DATABASE_URL when it is MySQL, otherwise a fresh SQLite file. */
export const suiteDatabaseUrl = mysqlUrl ?? freshSqliteUrl();
