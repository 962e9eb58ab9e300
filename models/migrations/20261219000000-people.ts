// People and memberships (issue 49, item 1): the one owner of each account becomes a user (same id, so console
// sessions, whose `owner_id` points at it, keep working) with a membership `owner` in its live account, and
// `accounts.owner_user_id` names it. Users are global (no account_id): a sandbox twin shares its live account's people.
// `owners` is renamed, not copied, on both databases: MariaDB and SQLite both move the foreign keys pointing at a
// renamed table with it. SQLite cannot drop a column a foreign key uses, so there the table is rebuilt (SQLite's own
// procedure: foreign keys off, a new table, copy, drop, rename; checked before they come back on).
// `down` refuses once an account has two members (owners held one person per account).
import { DataTypes, QueryTypes, type QueryInterface, type Sequelize } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, tableOptions, timestamp, timestamps } from '../columns.ts';

const usersTable = () => ({
  id: idColumn(),
  email: { type: DataTypes.STRING(254), allowNull: false, unique: true },
  name: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '' },
  // scrypt$N$r$p$salt$hash; null until the person sets a password.
  password_hash: { type: DataTypes.STRING(255), allowNull: true },
  // Sealed by the TOTP work (AAD `user:<id>`); null while TOTP is off.
  totp_secret: { type: DataTypes.TEXT, allowNull: true },
  // The last TOTP step accepted (a code of that step or an earlier one is a replay).
  totp_last_step: { type: DataTypes.BIGINT, allowNull: true },
  // The (live) account sign-in opens; null: the oldest membership.
  last_account_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'accounts', key: 'id' }, onDelete: 'SET NULL' },
  last_sign_in_at: timestamp(true),
  ...timestamps(),
});

const ownersTable = () => ({
  id: idColumn(),
  account_id: accountRef(),
  email: { type: DataTypes.STRING(254), allowNull: false, unique: true },
  password_hash: { type: DataTypes.STRING(255), allowNull: true },
  ...timestamps(),
});

const rows = <T extends object>(sequelize: Sequelize, sql: string) => sequelize.query<T>(sql, { type: QueryTypes.SELECT });

/** SQLite: runs `fn` with foreign keys off (a table can be dropped and replaced without its children noticing). */
async function withoutSqliteForeignKeys(sequelize: Sequelize, fn: () => Promise<void>): Promise<void> {
  await sequelize.query('PRAGMA foreign_keys = OFF');
  try {
    await fn();
    const broken = await rows<Record<string, unknown>>(sequelize, 'PRAGMA foreign_key_check');
    if (broken.length > 0) throw new Error(`The rebuilt tables break ${broken.length} foreign keys: ${JSON.stringify(broken.slice(0, 3))}`);
  } finally {
    await sequelize.query('PRAGMA foreign_keys = ON');
  }
}

/** SQLite: replaces `table` by a new one made by `create(name)` holding `select` (the same ids). */
async function rebuildSqliteTable(queryInterface: QueryInterface, table: string, create: (name: string) => Promise<void>, columns: string[], select: string): Promise<void> {
  const next = `${table}_next`;
  await create(next);
  await queryInterface.sequelize.query(`INSERT INTO \`${next}\` (${columns.map((c) => `\`${c}\``).join(', ')}) ${select}`);
  await queryInterface.dropTable(table);
  await queryInterface.renameTable(next, table);
}

async function assertEmailsStayUnique(sequelize: Sequelize): Promise<void> {
  const clashes = await rows<{ email: string }>(sequelize, 'SELECT LOWER(email) AS email FROM owners GROUP BY LOWER(email) HAVING COUNT(*) > 1');
  if (clashes.length > 0) {
    throw new Error(`Owners' emails must be unique once lower-cased; these are not: ${clashes.map((c) => c.email).join(', ')}`);
  }
}

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  const mysql = sequelize.getDialect() !== 'sqlite';
  await assertEmailsStayUnique(sequelize);
  await queryInterface.renameTable('owners', 'users');

  await queryInterface.createTable(
    'memberships',
    {
      id: idColumn(),
      // Always a live account: the sandbox twin has the same people.
      account_id: accountRef(),
      user_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      role: { type: DataTypes.STRING(16), allowNull: false },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('memberships', ['account_id', 'user_id'], { unique: true, name: 'memberships_account_user' });
  await queryInterface.addIndex('memberships', ['user_id'], { name: 'memberships_user' });
  // An owner of a sandbox account (none is made so) would be a member of its live account.
  await sequelize.query(
    'INSERT INTO memberships (account_id, user_id, role, created_at, updated_at) ' +
      "SELECT COALESCE(a.live_account_id, a.id), u.id, 'owner', u.created_at, u.updated_at FROM users u JOIN accounts a ON a.id = u.account_id",
  );

  if (mysql) {
    const [fk] = await rows<{ name: string }>(
      sequelize,
      "SELECT CONSTRAINT_NAME AS name FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'users' AND COLUMN_NAME = 'account_id' AND REFERENCED_TABLE_NAME IS NOT NULL",
    );
    await sequelize.query(
      `ALTER TABLE users ${fk ? `DROP FOREIGN KEY \`${fk.name}\`, ` : ''}DROP INDEX owners_account_id, DROP COLUMN account_id, ` +
        "ADD COLUMN name VARCHAR(100) NOT NULL DEFAULT '' AFTER email, ADD COLUMN totp_secret TEXT NULL AFTER password_hash, " +
        'ADD COLUMN totp_last_step BIGINT NULL AFTER totp_secret, ADD COLUMN last_account_id INTEGER NULL AFTER totp_last_step, ' +
        'ADD COLUMN last_sign_in_at DATETIME(3) NULL AFTER last_account_id, ' +
        'ADD CONSTRAINT users_last_account FOREIGN KEY (last_account_id) REFERENCES accounts (id) ON DELETE SET NULL',
    );
    await sequelize.query('UPDATE users SET email = LOWER(email)');
  } else {
    await withoutSqliteForeignKeys(sequelize, () =>
      rebuildSqliteTable(
        queryInterface,
        'users',
        (name) => queryInterface.createTable(name, usersTable(), tableOptions),
        ['id', 'email', 'name', 'password_hash', 'created_at', 'updated_at'],
        "SELECT id, LOWER(email), '', password_hash, created_at, updated_at FROM users",
      ),
    );
  }

  // The one owner, on the live account (a twin's owner is its live account's). Named on MariaDB for `down`.
  if (mysql) {
    await sequelize.query('ALTER TABLE accounts ADD COLUMN owner_user_id INTEGER NULL, ADD CONSTRAINT accounts_owner_user FOREIGN KEY (owner_user_id) REFERENCES users (id) ON DELETE SET NULL');
  } else {
    await queryInterface.addColumn('accounts', 'owner_user_id', { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' });
  }
  await sequelize.query("UPDATE accounts SET owner_user_id = (SELECT MIN(m.user_id) FROM memberships m WHERE m.account_id = accounts.id AND m.role = 'owner')");
};

/** SQLite: the CREATE statement of `table` without its last column `column` (the one ALTER TABLE ADD COLUMN put there). */
async function withoutLastColumn(sequelize: Sequelize, table: string, column: string): Promise<string> {
  const [found] = await rows<{ sql: string }>(sequelize, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '${table}'`);
  const sql = found?.sql ?? '';
  const at = sql.search(new RegExp(`,\\s*[\`"]${column}[\`"]`));
  if (at < 0 || sql.slice(at + 1).includes(',')) throw new Error(`${table}.${column} is not the table's last column; cannot take it out: ${sql}`);
  return sql.slice(0, at) + sql.slice(sql.lastIndexOf(')'));
}

export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  const mysql = sequelize.getDialect() !== 'sqlite';
  const crowded = await rows<{ account_id: number }>(sequelize, 'SELECT account_id FROM memberships GROUP BY account_id HAVING COUNT(*) > 1');
  if (crowded.length > 0) {
    throw new Error(`Cannot go back to one owner per account: ${crowded.length} account(s) have two or more members (e.g. account ${crowded[0]!.account_id})`);
  }
  const unplaced = await rows<{ id: number }>(sequelize, 'SELECT u.id FROM users u LEFT JOIN memberships m ON m.user_id = u.id GROUP BY u.id HAVING COUNT(m.id) <> 1');
  if (unplaced.length > 0) {
    throw new Error(`Cannot go back to owners: ${unplaced.length} user(s) belong to no account or to several (e.g. user ${unplaced[0]!.id})`);
  }

  if (mysql) {
    // A foreign key goes in its own statement before its column (MariaDB refuses some combined forms).
    await sequelize.query('ALTER TABLE accounts DROP FOREIGN KEY accounts_owner_user');
    await sequelize.query('ALTER TABLE accounts DROP COLUMN owner_user_id');
    await sequelize.query('ALTER TABLE users DROP FOREIGN KEY users_last_account');
    await sequelize.query('ALTER TABLE users ADD COLUMN account_id INTEGER NULL AFTER id');
    await sequelize.query('UPDATE users u JOIN memberships m ON m.user_id = u.id SET u.account_id = m.account_id');
    await sequelize.query(
      'ALTER TABLE users MODIFY account_id INTEGER NOT NULL, ' +
        'DROP COLUMN name, DROP COLUMN totp_secret, DROP COLUMN totp_last_step, DROP COLUMN last_account_id, DROP COLUMN last_sign_in_at, ' +
        'ADD INDEX owners_account_id (account_id), ADD CONSTRAINT owners_ibfk_1 FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE',
    );
    await queryInterface.dropTable('memberships');
    await queryInterface.renameTable('users', 'owners');
    return;
  }

  await withoutSqliteForeignKeys(sequelize, async () => {
    const accountsSql = await withoutLastColumn(sequelize, 'accounts', 'owner_user_id');
    const columns = (await rows<{ name: string }>(sequelize, 'PRAGMA table_info(accounts)')).map((c) => `\`${c.name}\``).filter((c) => c !== '`owner_user_id`');
    const indexes = await rows<{ sql: string }>(sequelize, "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'accounts' AND sql IS NOT NULL");
    await sequelize.query(accountsSql.replace(/^CREATE TABLE\s+(`accounts`|"accounts"|accounts)/, 'CREATE TABLE `accounts_next`'));
    await sequelize.query(`INSERT INTO accounts_next (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM accounts`);
    await sequelize.query('DROP TABLE accounts');
    await sequelize.query('ALTER TABLE accounts_next RENAME TO accounts');
    for (const index of indexes) await sequelize.query(index.sql);

    await queryInterface.renameTable('users', 'owners');
    await rebuildSqliteTable(
      queryInterface,
      'owners',
      (name) => queryInterface.createTable(name, ownersTable(), tableOptions),
      ['id', 'account_id', 'email', 'password_hash', 'created_at', 'updated_at'],
      'SELECT o.id, m.account_id, o.email, o.password_hash, o.created_at, o.updated_at FROM owners o JOIN memberships m ON m.user_id = o.id',
    );
    await queryInterface.dropTable('memberships');
  });
  await queryInterface.addIndex('owners', ['account_id']);
};
