// The people migration (issue 49, item 1): owners become users with the same ids, a membership `owner` each on the
// live account and `accounts.owner_user_id`; sessions and sign-ins keep working; `down` restores owners (ids,
// accounts, emails lower-cased, hashes), and refuses once an account has two members.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type { Sequelize } from 'sequelize';
import { loadConfig, type Config } from '../../lib/config.ts';
import { connectDatabase } from '../../lib/db.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { createModels, type Models } from '../../models/index.ts';
import { createMigrator, migrateUp } from '../../models/migrator.ts';
import { createAccount } from '../../services/accounts.ts';
import { findSession, signIn } from '../../services/console/sessions.ts';
import { freshSqliteUrl, scratchMysqlDatabase } from '../helpers/database.ts';
import { mysqlUrl, TEST_SCRYPT_LOG2N } from '../helpers/env.ts';

const BEFORE = '20261218000000-member-seats';
const PEOPLE = '20261219000000-people';
const PASSWORD = 'the owners password';

type Row = Record<string, unknown>;

function peopleSuite(dialect: string, makeUrl: () => Promise<{ url: string; drop: () => Promise<void> }>) {
  describe(`the people migration on ${dialect}`, function () {
    this.timeout(120_000);
    let config: Config;
    let sequelize: Sequelize;
    let drop: () => Promise<void>;
    let models: Models;
    const ids = { liveA: 0, sandboxA: 0, liveB: 0, ownerA: 0, ownerB: 0 };
    let ownersBefore: Row[];
    let ownersShape: object;
    const sessionId = 'a-session-id-from-before-the-migration';

    const select = async (sql: string) => (await sequelize.query(sql))[0] as Row[];
    const lastId = async (table: string) => Number(((await sequelize.query(`SELECT MAX(id) AS id FROM ${table}`, { plain: true })) as { id: number }).id);
    const migrator = () => createMigrator(sequelize);
    const ctx = () => ({ models, now: () => new Date(), config });
    const referenced = async (table: string, column: string) =>
      (await sequelize.getQueryInterface().getForeignKeyReferencesForTable(table) as Array<{ columnName: string; referencedTableName: string }>)
        .filter((fk) => fk.columnName === column)
        .map((fk) => fk.referencedTableName);

    before(async () => {
      const made = await makeUrl();
      drop = made.drop;
      config = loadConfig({ DATABASE_URL: made.url, PASSWORD_SCRYPT_LOG2N: String(TEST_SCRYPT_LOG2N) });
      sequelize = await connectDatabase(config.database);
      models = createModels(sequelize);
      await migrator().up({ to: BEFORE });

      const qi = sequelize.getQueryInterface();
      const now = new Date();
      const stamp = { created_at: now, updated_at: now };
      await qi.bulkInsert('accounts', [{ name: 'A', plan: 'free', mode: 'live', ...stamp }]);
      ids.liveA = await lastId('accounts');
      await qi.bulkInsert('accounts', [{ name: 'A', plan: 'free', mode: 'sandbox', live_account_id: ids.liveA, ...stamp }]);
      ids.sandboxA = await lastId('accounts');
      await qi.bulkInsert('accounts', [{ name: 'B', plan: 'pro', mode: 'live', ...stamp }]);
      ids.liveB = await lastId('accounts');
      const hash = await hashPassword(PASSWORD, TEST_SCRYPT_LOG2N);
      await qi.bulkInsert('owners', [{ account_id: ids.liveA, email: 'ana@a.example', password_hash: hash, ...stamp }]);
      ids.ownerA = await lastId('owners');
      // An owner from before emails were lower-cased everywhere, without a password.
      await qi.bulkInsert('owners', [{ account_id: ids.liveB, email: 'Bo@B.example', password_hash: null, ...stamp }]);
      ids.ownerB = await lastId('owners');
      await qi.bulkInsert('console_sessions', [{
        id_hash: createHash('sha256').update(sessionId).digest('hex'), owner_id: ids.ownerA, account_id: ids.liveA, mode: 'sandbox',
        csrf_secret: 'c'.repeat(64), created_at: now, last_seen_at: now,
      }]);
      ownersBefore = await select('SELECT id, account_id, email, password_hash FROM owners ORDER BY id');
      ownersShape = await qi.describeTable('owners');
      // Up to today's schema: the service code these tests call (sign-in, sessions) reads the later migrations' columns.
      await migrateUp(sequelize, config.database);
    });
    after(async () => {
      await sequelize?.close();
      await drop?.();
    });

    it('keeps every owner as a user with the same id and password, the email lower-cased and no name', async () => {
      const users = await select('SELECT id, email, name, password_hash, totp_secret, totp_last_step, last_account_id, last_sign_in_at FROM users ORDER BY id');
      expect(users).to.deep.equal([
        { id: ids.ownerA, email: 'ana@a.example', name: '', password_hash: ownersBefore[0]!.password_hash, totp_secret: null, totp_last_step: null, last_account_id: null, last_sign_in_at: null },
        { id: ids.ownerB, email: 'bo@b.example', name: '', password_hash: null, totp_secret: null, totp_last_step: null, last_account_id: null, last_sign_in_at: null },
      ]);
    });

    it('gives each owner the membership owner of its live account, and names them on the live account only', async () => {
      expect(await select('SELECT account_id, user_id, role FROM memberships ORDER BY user_id')).to.deep.equal([
        { account_id: ids.liveA, user_id: ids.ownerA, role: 'owner' },
        { account_id: ids.liveB, user_id: ids.ownerB, role: 'owner' },
      ]);
      const owners = await select('SELECT id, owner_user_id FROM accounts ORDER BY id');
      expect(owners).to.deep.equal([
        { id: ids.liveA, owner_user_id: ids.ownerA },
        { id: ids.sandboxA, owner_user_id: null },
        { id: ids.liveB, owner_user_id: ids.ownerB },
      ]);
    });

    it('points the foreign keys at users: sessions, memberships, the account owner', async () => {
      expect(await referenced('console_sessions', 'owner_id')).to.deep.equal(['users']);
      expect(await referenced('memberships', 'user_id')).to.deep.equal(['users']);
      expect(await referenced('accounts', 'owner_user_id')).to.deep.equal(['users']);
      expect(await referenced('users', 'last_account_id')).to.deep.equal(['accounts']);
    });

    it('keeps a session made before the migration valid, on its account and mode', async () => {
      const session = await findSession(ctx(), sessionId);
      expect(session).to.deep.include({ owner_id: ids.ownerA, account_id: ids.liveA, mode: 'sandbox' });
      // The sessions migration gave it a public id (its list and revoke name it), and no address it never had.
      expect(session!.public_id).to.match(/^[A-Za-z0-9_-]{16}$/);
      expect(session!.ip).to.equal(null);
      expect((await models.User.findByPk(session!.owner_id))!.email).to.equal('ana@a.example');
    });

    it('signs the owner in to their account through the membership, and records when', async () => {
      const signed = await signIn(ctx(), { email: 'ANA@a.example', password: PASSWORD, clientIp: '127.0.0.1' });
      expect(signed.session).to.deep.include({ owner_id: ids.ownerA, account_id: ids.liveA, mode: 'live' });
      expect((await models.User.findByPk(ids.ownerA))!.last_sign_in_at).to.be.instanceOf(Date);
    });

    it('makes new accounts with a user, the owner membership and owner_user_id; an email already a user is refused', async () => {
      const created = await createAccount(ctx(), { name: 'C', ownerEmail: 'Cy@C.example' });
      const user = await models.User.findOne({ where: { email: 'cy@c.example' }, rejectOnEmpty: true });
      expect((await models.Account.findByPk(created.accountId))!.owner_user_id).to.equal(user.id);
      expect((await models.Account.findByPk(created.sandboxAccountId))!.owner_user_id).to.equal(null);
      expect(await select(`SELECT account_id, role FROM memberships WHERE user_id = ${user.id}`)).to.deep.equal([{ account_id: created.accountId, role: 'owner' }]);
      let taken: unknown;
      await createAccount(ctx(), { name: 'D', ownerEmail: 'bo@b.example' }).catch((err: unknown) => (taken = err));
      expect(taken).to.have.property('code', 'owner_email_taken');
    });

    it('refuses to go down once an account has two members, and changes nothing', async () => {
      const now = new Date();
      const extra = await models.User.create({ email: 'second@a.example', password_hash: null });
      await models.Membership.create({ account_id: ids.liveA, user_id: extra.id, role: 'viewer', created_at: now, updated_at: now });
      let refused: unknown;
      await migrator().down({ to: PEOPLE }).catch((err: unknown) => (refused = err));
      expect(String((refused as Error | undefined)?.message)).to.match(/two or more members/);
      expect((await migrator().executed()).map((m) => m.name)).to.include(PEOPLE);
      expect(await models.Membership.count({ where: { account_id: ids.liveA } })).to.equal(2);
      await models.Membership.destroy({ where: { user_id: extra.id } });
      await extra.destroy();
    });

    it('goes down to owners exactly as they were (ids, account, email, hash), sessions still valid, the rest gone', async () => {
      // The account made above and its owner are not part of the rows compared.
      await sequelize.query(`DELETE FROM memberships WHERE account_id NOT IN (${ids.liveA}, ${ids.liveB})`);
      await sequelize.query(`DELETE FROM users WHERE id NOT IN (${ids.ownerA}, ${ids.ownerB})`);
      await migrator().down({ to: PEOPLE });
      // Emails stay lower-cased (the one change `up` makes to what owners held).
      const expected = ownersBefore.map((o) => ({ ...o, email: String(o.email).toLowerCase() }));
      expect(await select('SELECT id, account_id, email, password_hash FROM owners ORDER BY id')).to.deep.equal(expected);
      expect(await sequelize.getQueryInterface().describeTable('owners')).to.deep.equal(ownersShape);
      const tables = ((await sequelize.getQueryInterface().showAllTables()) as Array<string | { tableName: string }>).map((t) => (typeof t === 'string' ? t : t.tableName));
      expect(tables).to.include('owners').and.not.to.include.members(['users', 'memberships']);
      expect(Object.keys(await sequelize.getQueryInterface().describeTable('accounts'))).not.to.include('owner_user_id');
      expect(await referenced('console_sessions', 'owner_id')).to.deep.equal(['owners']);
      expect(await referenced('owners', 'account_id')).to.deep.equal(['accounts']);
      const [session] = await select(`SELECT owner_id, account_id FROM console_sessions WHERE id_hash = '${createHash('sha256').update(sessionId).digest('hex')}'`);
      expect(session).to.deep.equal({ owner_id: ids.ownerA, account_id: ids.liveA });
      expect(await select(`SELECT id FROM accounts WHERE id IN (${ids.liveA}, ${ids.sandboxA}, ${ids.liveB}) ORDER BY id`)).to.have.length(3);
    });

    it('goes up again after going down', async () => {
      await migrateUp(sequelize, config.database);
      expect(await select('SELECT id, email FROM users ORDER BY id')).to.deep.equal([
        { id: ids.ownerA, email: 'ana@a.example' },
        { id: ids.ownerB, email: 'bo@b.example' },
      ]);
      expect(await findSession(ctx(), sessionId)).to.not.equal(null);
    });
  });
}

if (mysqlUrl) peopleSuite('MySQL', () => scratchMysqlDatabase(mysqlUrl!));
else peopleSuite('SQLite', async () => ({ url: freshSqliteUrl(), drop: async () => undefined }));
