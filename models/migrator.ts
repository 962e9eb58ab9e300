// Runs the umzug migrations in models/migrations, one process at a time.
import { readdirSync } from 'node:fs';
import { open, readFile, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createConnection } from 'mysql2/promise';
import type { QueryInterface, Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug, type MigrationFn } from 'umzug';
import type { DatabaseConfig } from '../lib/config.ts';

export interface MigrationContext {
  queryInterface: QueryInterface;
  sequelize: Sequelize;
}
export type Migration = MigrationFn<MigrationContext>;

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
// Names carry no extension, so a run from the .ts sources and one from a .js build are the same migration.
const MIGRATION_FILE = /^(\d{14}-[\w-]+)\.(ts|js)$/;
const LOCK_WAIT_MS = 60_000;

function listMigrations(context: MigrationContext) {
  return readdirSync(migrationsDir)
    .map((file) => MIGRATION_FILE.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .sort((a, b) => a[1]!.localeCompare(b[1]!))
    .map(([file, name]) => {
      const load = async () =>
        (await import(pathToFileURL(join(migrationsDir, file)).href)) as { up: Migration; down: Migration };
      return {
        name: name!,
        up: async () => (await load()).up({ name: name!, context }),
        down: async () => (await load()).down({ name: name!, context }),
      };
    });
}

export function createMigrator(sequelize: Sequelize): Umzug<MigrationContext> {
  const context = { queryInterface: sequelize.getQueryInterface(), sequelize };
  return new Umzug({
    migrations: () => listMigrations(context),
    context,
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

async function withMysqlLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const conn = await createConnection({ uri: url, connectTimeout: 3000 });
  try {
    const [rows] = await conn.query('SELECT GET_LOCK(?, ?) AS got', ['cardsvc.migrate', LOCK_WAIT_MS / 1000]);
    if ((rows as Array<{ got: number | null }>)[0]?.got !== 1) throw new Error('Timed out waiting for the migration lock');
    try {
      return await fn();
    } finally {
      await conn.query('SELECT RELEASE_LOCK(?)', ['cardsvc.migrate']);
    }
  } finally {
    await conn.end();
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// SQLite has no named locks: an exclusively created file beside the database holds the writer's pid.
async function withFileLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(await readFile(path, 'utf8').catch(() => ''));
      if (holder > 0 && !processAlive(holder)) {
        await unlink(path).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the migration lock ${path}`, { cause: err });
      await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(path).catch(() => undefined);
  }
}

/** Serializes migration runs across processes (MySQL GET_LOCK, or a lock file for SQLite). */
export function withMigrationLock<T>(db: DatabaseConfig, fn: () => Promise<T>): Promise<T> {
  if (db.dialect === 'mysql') return withMysqlLock(db.url, fn);
  if (db.storage === ':memory:') return fn();
  return withFileLock(`${db.storage}.migrate-lock`, fn);
}

/** Applies every pending migration; returns the names applied. */
export async function migrateUp(sequelize: Sequelize, db: DatabaseConfig): Promise<string[]> {
  return withMigrationLock(db, async () => (await createMigrator(sequelize).up()).map((m) => m.name));
}

/** Reverts every applied migration (tests and `npm run migrate -- down`). */
export async function migrateDownAll(sequelize: Sequelize, db: DatabaseConfig): Promise<string[]> {
  return withMigrationLock(db, async () => (await createMigrator(sequelize).down({ to: 0 })).map((m) => m.name));
}

export async function pendingMigrations(sequelize: Sequelize): Promise<string[]> {
  return (await createMigrator(sequelize).pending()).map((m) => m.name);
}
