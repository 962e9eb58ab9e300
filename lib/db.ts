// Opens the database named by DATABASE_URL: SQLite (embedded default) or MySQL/MariaDB.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Sequelize } from 'sequelize';
import { redactDatabaseUrl, type DatabaseConfig } from './config.ts';

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/** Builds (but does not connect) a Sequelize instance with the project's conventions: UTC, snake_case. */
export function createSequelize(db: DatabaseConfig): Sequelize {
  const define = { underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' } as const;
  if (db.dialect === 'sqlite') {
    if (db.storage !== ':memory:') mkdirSync(dirname(db.storage), { recursive: true });
    const sequelize = new Sequelize({ dialect: 'sqlite', storage: db.storage, logging: false, define });
    // Sequelize opens one SQLite connection per transaction: wait for the write lock instead of failing.
    sequelize.addHook('afterConnect', async (connection: unknown) => {
      const conn = connection as { exec(sql: string, cb: (err: Error | null) => void): void };
      await new Promise<void>((ok, fail) =>
        conn.exec('PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL;', (err) =>
          err ? fail(err) : ok(),
        ),
      );
    });
    return sequelize;
  }
  return new Sequelize(db.url, {
    dialect: 'mysql',
    logging: false,
    timezone: '+00:00',
    define: { ...define, charset: 'utf8mb4', collate: 'utf8mb4_unicode_ci' },
    dialectOptions: { connectTimeout: 3000, charset: 'utf8mb4' },
    // Requests fail fast (503) rather than queue behind an unreachable database.
    pool: { max: 10, min: 0, acquire: 3000, idle: 10000 },
  });
}

/** Connects and checks the database answers; the error is one line without the password. */
export async function connectDatabase(db: DatabaseConfig): Promise<Sequelize> {
  const sequelize = createSequelize(db);
  try {
    await sequelize.authenticate();
  } catch (err) {
    await sequelize.close().catch(() => undefined);
    const reason = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new DatabaseUnavailableError(`Cannot connect to the database ${redactDatabaseUrl(db.url)}: ${reason}`);
  }
  return sequelize;
}
