import { expect } from 'chai';
import type { Sequelize } from 'sequelize';
import { loadConfig, type DatabaseConfig } from '../../lib/config.ts';
import { connectDatabase } from '../../lib/db.ts';
import { createModels } from '../../models/index.ts';
import { createMigrator, migrateDownAll, migrateUp } from '../../models/migrator.ts';
import { freshSqliteUrl, scratchMysqlDatabase } from '../helpers/database.ts';
import { mysqlUrl } from '../helpers/env.ts';

const MIGRATION = '20261201000000-card-fields';
const BEFORE = '20261130000000-brands';

// The card-fields migration on rows that existed before it: the defaults, and a down that takes the columns away.
function suite(dialect: string, makeUrl: () => Promise<{ url: string; drop: () => Promise<void> }>) {
  describe(`the card fields migration on ${dialect}`, function () {
    this.timeout(60_000);
    let db: DatabaseConfig;
    let sequelize: Sequelize;
    let drop: () => Promise<void>;
    let widgetId: number;
    let ecardId: number;
    before(async () => {
      const made = await makeUrl();
      drop = made.drop;
      db = loadConfig({ DATABASE_URL: made.url }).database;
      sequelize = await connectDatabase(db);
      await migrateDownAll(sequelize, db);
      await createMigrator(sequelize).up({ to: BEFORE });
      const qi = sequelize.getQueryInterface();
      const stamp = { created_at: new Date(), updated_at: new Date() };
      await qi.bulkInsert('accounts', [{ name: 'Old Co', plan: 'free', mode: 'live', ...stamp }]);
      const accountId = ((await sequelize.query('SELECT MAX(id) AS id FROM accounts', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('widgets', [{ account_id: accountId, vanity_id: 'oldwidget001', name: 'Old widget', wconfig: '{}', ...stamp }]);
      widgetId = ((await sequelize.query('SELECT MAX(id) AS id FROM widgets', { plain: true })) as { id: number }).id;
      await qi.bulkInsert('ecards', [{ account_id: accountId, widget_id: widgetId, vanity_id: 'oldecard0001', name: 'Old card', ecard_mode: 'legacy', ...stamp }]);
      ecardId = ((await sequelize.query('SELECT MAX(id) AS id FROM ecards', { plain: true })) as { id: number }).id;
      await migrateUp(sequelize, db);
    });
    after(async () => {
      await sequelize?.close();
      await drop?.();
    });

    it('existing widgets have sharing off, no details and no fallbacks', async () => {
      const widget = (await createModels(sequelize).Widget.findByPk(widgetId))!;
      expect(widget.get({ plain: true })).to.deep.include({
        public_share_enabled: false, logo: null, website: null, address: null, stwitter: null, sfacebook: null, sinstagram: null, slinkedin: null, syoutube: null,
      });
      expect(widget.merge_tag_defaults).to.deep.equal({});
    });

    it('existing eCards have the classic theme, no loop and no labels; their stored mode is kept', async () => {
      const ecard = (await createModels(sequelize).Ecard.findByPk(ecardId))!;
      expect(ecard.get({ plain: true })).to.deep.include({
        envelope_theme: 'classic', envelope_audio_repeat: false, ecard_link_alt_text: null, thumbnail_alt_label: null, og_title: null, og_description: null, ecard_mode: 'legacy',
      });
    });

    it('down removes the columns and keeps the rows; up again restores the defaults', async () => {
      await createMigrator(sequelize).down({ to: MIGRATION });
      const widgetColumns = Object.keys(await sequelize.getQueryInterface().describeTable('widgets'));
      const ecardColumns = Object.keys(await sequelize.getQueryInterface().describeTable('ecards'));
      for (const column of ['logo', 'merge_tag_defaults', 'public_share_enabled', 'syoutube']) expect(widgetColumns).not.to.include(column);
      for (const column of ['envelope_theme', 'envelope_audio_repeat', 'ecard_link_alt_text', 'og_description']) expect(ecardColumns).not.to.include(column);
      const count = async (table: string) => Number(((await sequelize.query(`SELECT COUNT(*) AS n FROM ${table}`, { plain: true })) as { n: number }).n);
      expect(await count('widgets')).to.equal(1);
      expect(await count('ecards')).to.equal(1);
      await migrateUp(sequelize, db);
      expect((await createModels(sequelize).Widget.findByPk(widgetId))!.public_share_enabled).to.equal(false);
    });
  });
}

// Each pass its own dialect: the SQLite pass migrates a fresh SQLite file, the MariaDB pass a scratch database.
if (mysqlUrl) suite('MySQL', () => scratchMysqlDatabase(mysqlUrl!));
else suite('SQLite', async () => ({ url: freshSqliteUrl(), drop: async () => undefined }));
