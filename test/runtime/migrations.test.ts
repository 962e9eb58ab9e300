import { expect } from 'chai';
import type { Sequelize } from 'sequelize';
import type { DatabaseConfig } from '../../lib/config.ts';
import { loadConfig } from '../../lib/config.ts';
import { connectDatabase } from '../../lib/db.ts';
import { createModels } from '../../models/index.ts';
import { loadSnapshot } from '../../services/sends/accept/snapshot.ts';
import { createMigrator, migrateDownAll, migrateUp, pendingMigrations } from '../../models/migrator.ts';
import { freshSqliteUrl, scratchMysqlDatabase } from '../helpers/database.ts';
import { mysqlUrl } from '../helpers/env.ts';

const TABLES = ['accounts', 'users', 'memberships', 'api_keys', 'rate_limit_counters', 'widgets', 'ecards', 'media_files', 'confirmation_tokens', 'team_members', 'departments', 'member_departments', 'custom_fields', 'member_custom_values', 'event_outbox', 'webhook_endpoints', 'webhook_secrets', 'webhook_deliveries', 'webhook_attempts', 'mail_queue', 'sends', 'send_recipients', 'idempotency_keys', 'quota_usage', 'suppressions', 'mail_sink', 'send_suspensions', 'send_snapshots', 'campaigns', 'campaign_recipients', 'unsubscribe_links', 'automations', 'automation_ecards', 'automation_sends', 'send_designs', 'send_design_refs', 'brands', 'account_settings', 'member_seats'];

async function tables(sequelize: Sequelize): Promise<string[]> {
  const names = (await sequelize.getQueryInterface().showAllTables()) as Array<string | { tableName: string }>;
  return names.map((t) => (typeof t === 'string' ? t : t.tableName)).filter((t) => !t.startsWith('sqlite_'));
}

function migrationSuite(dialect: string, makeUrl: () => Promise<{ url: string; drop: () => Promise<void> }>) {
  describe(`migrations on ${dialect}`, function () {
    this.timeout(60_000);
    let db: DatabaseConfig;
    let sequelize: Sequelize;
    let drop: () => Promise<void>;

    before(async () => {
      const made = await makeUrl();
      drop = made.drop;
      db = loadConfig({ DATABASE_URL: made.url }).database;
      sequelize = await connectDatabase(db);
    });
    after(async () => {
      await sequelize?.close();
      await drop?.();
    });

    it('applies every migration, records names without a file extension, then reverts to an empty schema', async () => {
      expect(await pendingMigrations(sequelize)).to.have.length.greaterThan(0);
      const applied = await migrateUp(sequelize, db);
      expect(applied).to.include('20261121000000-accounts-owners-api-keys');
      for (const name of applied) expect(name).not.to.match(/\.(ts|js)$/);
      expect(await tables(sequelize)).to.include.members([...TABLES, 'schema_migrations']);
      expect(await pendingMigrations(sequelize)).to.deep.equal([]);
      expect(await migrateUp(sequelize, db)).to.deep.equal([]);

      await migrateDownAll(sequelize, db);
      expect(await tables(sequelize)).not.to.include.members(TABLES);
      expect((await createMigrator(sequelize).executed()).length).to.equal(0);
    });

    it('serializes concurrent runs: two at once apply each migration once', async () => {
      const other = await connectDatabase(db);
      try {
        const [a, b] = await Promise.all([migrateUp(sequelize, db), migrateUp(other, db)]);
        expect([...a, ...b].sort()).to.deep.equal((await createMigrator(sequelize).executed()).map((m) => m.name).sort());
        expect(await tables(sequelize)).to.include.members(TABLES);
      } finally {
        await other.close();
      }
    });

    it('fills the snapshot of existing sends from their eCards where those still exist', async () => {
      await migrateDownAll(sequelize, db);
      await createMigrator(sequelize).up({ to: '20261121050000-sends' });
      const qi = sequelize.getQueryInterface();
      const now = new Date();
      const stamp = { created_at: now, updated_at: now };
      await qi.bulkInsert('accounts', [{ name: 'snap', plan: 'free', mode: 'live', ...stamp }]);
      const accountId = ((await sequelize.query('SELECT MAX(id) AS id FROM accounts', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('widgets', [{ account_id: accountId, vanity_id: 'snapwidget01', name: 'W', wconfig: '{}', ...stamp }]);
      const widgetId = ((await sequelize.query('SELECT MAX(id) AS id FROM widgets', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('ecards', [{
        account_id: accountId, widget_id: widgetId, vanity_id: 'snapecard001', name: 'Kept', email_subject: 'S', header: 'H', details: '<p>D</p>',
        envelope_color_settings: '{"background":"#010203"}', envelope_auto_open: 1, self_hosted_url: 'https://cdn.example.com/a.png', ...stamp,
      }]);
      const ecardId = ((await sequelize.query('SELECT MAX(id) AS id FROM ecards', { plain: true })) as { id: number }).id;
      const send = (n: number, ecard: number) => ({
        send_id: `00000000-0000-4000-8000-00000000000${n}`, account_id: accountId, ecard_id: ecard, widget_id: widgetId, mode: 'email', status: 'sent',
        sender_name: 'S', sender_email: 's@example.com', send_at: now, stat_vanity_id: `snapvanity${n}abcdefghijkl`, ...stamp,
      });
      await qi.bulkInsert('sends', [send(1, ecardId), send(2, ecardId + 1000)]);
      // Up to the migration that moves snapshots to send_designs (tested below).
      await createMigrator(sequelize).up({ to: '20261129300000-webhook-secrets-sealed' });
      const [rows] = (await sequelize.query('SELECT s.send_id, n.design FROM send_snapshots n JOIN sends s ON s.id = n.send_id')) as [Array<{ send_id: string; design: string }>, unknown];
      expect(rows.map((r) => r.send_id)).to.deep.equal(['00000000-0000-4000-8000-000000000001']);
      expect(JSON.parse(rows[0]!.design)).to.deep.include({
        ecard_id: ecardId, widget_id: widgetId, name: 'Kept', emailSubject: 'S', header: 'H', details: '<p>D</p>', self_hosted_url: 'https://cdn.example.com/a.png',
        envelope_color_settings: '{"background":"#010203"}', envelope_auto_open: true, envelope_confetti: false, url_redirect_after_send: null,
      });
    });

    it('moves snapshots to one row per distinct design (readable by loadSnapshot), and back on down', async () => {
      await migrateDownAll(sequelize, db);
      await createMigrator(sequelize).up({ to: '20261129300000-webhook-secrets-sealed' });
      const qi = sequelize.getQueryInterface();
      const now = new Date();
      const stamp = { created_at: now, updated_at: now };
      await qi.bulkInsert('accounts', [{ name: 'designs', plan: 'free', mode: 'live', ...stamp }]);
      const accountId = ((await sequelize.query('SELECT MAX(id) AS id FROM accounts', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('widgets', [{ account_id: accountId, vanity_id: 'designwidget', name: 'W', wconfig: '{}', ...stamp }]);
      const widgetId = ((await sequelize.query('SELECT MAX(id) AS id FROM widgets', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('ecards', [{ account_id: accountId, widget_id: widgetId, vanity_id: 'designecard1', name: 'E', ...stamp }]);
      const ecardId = ((await sequelize.query('SELECT MAX(id) AS id FROM ecards', { plain: true })) as { id: number }).id;
      // 1,203 sends (more than two batches of 500) of 2 designs.
      const count = 1203;
      const sends = Array.from({ length: count }, (_, n) => ({
        send_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, account_id: accountId, ecard_id: ecardId, widget_id: widgetId, mode: 'email', status: 'sent',
        sender_name: 'S', sender_email: 's@example.com', send_at: now, stat_vanity_id: `designvanity${String(n).padStart(12, '0')}`, ...stamp,
      }));
      for (let i = 0; i < count; i += 500) await qi.bulkInsert('sends', sends.slice(i, i + 500));
      const [sendRows] = (await sequelize.query('SELECT id FROM sends WHERE account_id = :accountId ORDER BY id', { replacements: { accountId } })) as [Array<{ id: number }>, unknown];
      const design = (header: string) => ({
        ecard_id: ecardId, widget_id: widgetId, name: 'E', emailSubject: 'S', header, details: '<p>D</p>', self_hosted_url: null, ecardLink: null,
        url_redirect_after_send: null, envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null,
        envelope_auto_open: false, envelope_confetti: false,
      });
      const designOf = (i: number) => design(i % 3 === 0 ? 'Third' : 'Other');
      const snapshots = sendRows.map((r, i) => ({ send_id: r.id, design: JSON.stringify(designOf(i)) }));
      for (let i = 0; i < count; i += 500) await qi.bulkInsert('send_snapshots', snapshots.slice(i, i + 500));

      await migrateUp(sequelize, db);
      const counted = async (sql: string) => Number(((await sequelize.query(sql, { plain: true })) as { n: number }).n);
      expect(await counted('SELECT COUNT(*) AS n FROM send_designs')).to.equal(2);
      expect(await counted('SELECT COUNT(*) AS n FROM send_design_refs')).to.equal(count);
      expect(await counted('SELECT COUNT(*) AS n FROM send_snapshots')).to.equal(0);
      const models = createModels(sequelize);
      for (const i of [0, 1, 500, 1202]) expect(await loadSnapshot({ models }, sendRows[i]!.id)).to.deep.equal(designOf(i));

      await createMigrator(sequelize).down({ to: '20261129310000-send-designs' });
      expect(await tables(sequelize)).not.to.include.members(['send_designs', 'send_design_refs']);
      const [restored] = (await sequelize.query('SELECT send_id, design FROM send_snapshots ORDER BY send_id')) as [Array<{ send_id: number; design: string }>, unknown];
      expect(restored).to.have.length(count);
      for (const [i, row] of restored.entries()) expect(JSON.parse(row.design), `send ${row.send_id}`).to.deep.equal(designOf(i));
      await migrateUp(sequelize, db);
    });

    it('gives every existing account a default brand, clears dangling ecardbrandid, and drops brands on down', async () => {
      await migrateDownAll(sequelize, db);
      await createMigrator(sequelize).up({ to: '20261129310000-send-designs' });
      const qi = sequelize.getQueryInterface();
      const now = new Date();
      const stamp = { created_at: now, updated_at: now };
      await qi.bulkInsert('accounts', [{ name: 'Branded Co', plan: 'free', mode: 'live', ...stamp }]);
      const accountId = ((await sequelize.query('SELECT MAX(id) AS id FROM accounts', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('accounts', [{ name: 'Branded Co', plan: 'free', mode: 'sandbox', live_account_id: accountId, ...stamp }]);
      await qi.bulkInsert('widgets', [{ account_id: accountId, vanity_id: 'brandwidget1', name: 'W', wconfig: '{}', ...stamp }]);
      const widgetId = ((await sequelize.query('SELECT MAX(id) AS id FROM widgets', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('ecards', [
        { account_id: accountId, widget_id: widgetId, vanity_id: 'brandecard01', name: 'Dangling', ecardbrandid: 1, ...stamp },
        { account_id: accountId, widget_id: widgetId, vanity_id: 'brandecard02', name: 'None', ecardbrandid: null, ...stamp },
      ]);

      await migrateUp(sequelize, db);
      const [brands] = (await sequelize.query('SELECT account_id, default_for, name, font FROM brands ORDER BY account_id')) as [Array<Record<string, unknown>>, unknown];
      expect(brands).to.deep.equal([
        { account_id: accountId, default_for: accountId, name: 'Branded Co', font: 'system' },
        { account_id: accountId + 1, default_for: accountId + 1, name: 'Branded Co', font: 'system' },
      ]);
      const [ecards] = (await sequelize.query('SELECT ecardbrandid FROM ecards WHERE widget_id = :widgetId', { replacements: { widgetId } })) as [Array<{ ecardbrandid: number | null }>, unknown];
      expect(ecards.map((e) => e.ecardbrandid)).to.deep.equal([null, null]);
      const models = createModels(sequelize);
      expect((await models.Brand.findOne({ where: { account_id: accountId } }))!.social).to.deep.equal({ twitter: null, facebook: null, instagram: null, linkedin: null, youtube: null });
      let duplicate: unknown;
      await qi.bulkInsert('brands', [{ account_id: accountId, default_for: accountId, name: 'Second default', font: 'system', social: '{}', ...stamp }]).catch((e: unknown) => (duplicate = e));
      expect(duplicate, 'a second default of one account is refused').to.be.instanceOf(Error);

      await createMigrator(sequelize).down({ to: '20261130000000-brands' });
      expect(await tables(sequelize)).not.to.include('brands');
      await migrateUp(sequelize, db);
    });

    it('gives every existing account a seats row holding its active members, and drops the rows on down', async () => {
      await migrateDownAll(sequelize, db);
      await createMigrator(sequelize).up({ to: '20261217010000-automation-zones' });
      const qi = sequelize.getQueryInterface();
      const now = new Date();
      const stamp = { created_at: now, updated_at: now };
      await qi.bulkInsert('accounts', [{ name: 'Seated Co', plan: 'free', mode: 'live', ...stamp }]);
      const seated = ((await sequelize.query('SELECT MAX(id) AS id FROM accounts', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('accounts', [{ name: 'Empty Co', plan: 'free', mode: 'live', ...stamp }]);
      await qi.bulkInsert('team_members', ['a', 'b', 'c', 'd'].map((name, i) => ({ account_id: seated, email: `${name}@example.com`, disabled: i === 3, ...stamp })));

      await migrateUp(sequelize, db);
      const [rows] = (await sequelize.query('SELECT account_id, used FROM member_seats ORDER BY account_id')) as [Array<{ account_id: number; used: number }>, unknown];
      expect(rows.map((r) => [r.account_id, Number(r.used)])).to.deep.equal([[seated, 3], [seated + 1, 0]]);

      await createMigrator(sequelize).down({ to: '20261218000000-member-seats' });
      expect(await tables(sequelize)).not.to.include('member_seats');
      await migrateUp(sequelize, db);
    });

    it('keeps API key hashes case-sensitive and unique', async () => {
      const qi = sequelize.getQueryInterface();
      await qi.bulkInsert('accounts', [{ name: 'a', plan: 'free', mode: 'live', created_at: new Date(), updated_at: new Date() }]);
      const accountId = ((await sequelize.query('SELECT MAX(id) AS id FROM accounts', { plain: true })) as { id: number }).id;
      const row = (hash: string) => ({
        account_id: accountId, name: '', key_hash: hash, last4: 'abcd', full_access: true, permissions: '{}',
        created_at: new Date(), updated_at: new Date(),
      });
      const lower = 'a'.repeat(64);
      await qi.bulkInsert('api_keys', [row(lower), row('A'.repeat(64))]);
      let duplicate: unknown;
      await qi.bulkInsert('api_keys', [row(lower)]).catch((e: unknown) => (duplicate = e));
      expect(duplicate, 'a second identical hash is refused').to.be.instanceOf(Error);
    });
  });
}

// Each pass its own dialect: the SQLite pass migrates a fresh SQLite file, the MariaDB pass a scratch database.
if (mysqlUrl) migrationSuite('MySQL', () => scratchMysqlDatabase(mysqlUrl!));
else migrationSuite('SQLite', async () => ({ url: freshSqliteUrl(), drop: async () => undefined }));
