// `npm run migrate [-- up | down | status]`: applies, reverts the last, or lists migrations.
import { loadConfig, redactDatabaseUrl } from '../lib/config.ts';
import { connectDatabase, withoutStatementTimeout } from '../lib/db.ts';
import { runMain } from '../lib/main.ts';
import { createMigrator, migrateUp, withMigrationLock } from '../models/migrator.ts';

await runMain('npm run migrate', async () => {
  const command = process.argv[2] ?? 'up';
  if (!['up', 'down', 'status'].includes(command)) throw new Error(`unknown command "${command}" (expected up, down or status)`);
  const config = loadConfig();
  const sequelize = await connectDatabase(withoutStatementTimeout(config.database));
  try {
    const where = redactDatabaseUrl(config.database.url);
    if (command === 'up') {
      const applied = await migrateUp(sequelize, config.database);
      console.error(applied.length ? `Applied ${applied.join(', ')} to ${where}` : `${where} is up to date`);
    } else if (command === 'down') {
      const reverted = await withMigrationLock(config.database, () => createMigrator(sequelize).down());
      console.error(reverted.length ? `Reverted ${reverted.map((m) => m.name).join(', ')}` : 'Nothing to revert');
    } else {
      const migrator = createMigrator(sequelize);
      for (const m of await migrator.executed()) console.log(`applied  ${m.name}`);
      for (const m of await migrator.pending()) console.log(`pending  ${m.name}`);
    }
  } finally {
    await sequelize.close();
  }
});
