// npm run fuzz: bad input against every operation of the served OpenAPI document (fuzz/main.ts), on an empty
// database: a scratch one beside DATABASE_URL's when it names MySQL (dropped after), else a fresh SQLite file, so no
// earlier run's webhooks or sends are still at work in the row counts. FUZZ_SEED replays a run, FUZZ_ONLY narrows it
// to the operations whose "METHOD /path" contains the text, FUZZ_RUNS changes the 30 cases per operation.
import { spawn } from 'node:child_process';
import { scratchMysqlDatabase } from '../test/helpers/database.ts';

const mysql = process.env.DATABASE_URL?.startsWith('mysql://') ? await scratchMysqlDatabase(process.env.DATABASE_URL) : undefined;
const child = spawn(process.execPath, ['--import', 'tsx', new URL('./main.ts', import.meta.url).pathname], {
  env: { ...process.env, ...(mysql ? { DATABASE_URL: mysql.url } : {}) },
  stdio: 'inherit',
});
const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
await mysql?.drop();
process.exit(code ?? 1);
