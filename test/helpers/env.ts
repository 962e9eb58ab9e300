// The environment tests start from: the machine's PATH and HOME (to find the Temporal CLI), nothing inherited else.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder for one test's data. */
export function tempDir(prefix = 'cardsvc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The suite's MySQL URL when DATABASE_URL names one; undefined runs everything on SQLite. */
export const mysqlUrl = process.env.DATABASE_URL?.startsWith('mysql://') ? process.env.DATABASE_URL : undefined;

/** Owner passwords in tests cost scrypt N = 2^14 (production 2^16; one test runs 16 and the re-hash). */
export const TEST_SCRYPT_LOG2N = 14;

/** A base environment for loadConfig and child processes: machine paths only, quiet logs, cheaper passwords. */
export function baseEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PASSWORD_SCRYPT_LOG2N: String(TEST_SCRYPT_LOG2N),
    ...overrides,
  };
}
