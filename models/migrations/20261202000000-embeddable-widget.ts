// The embeddable widget (issue 31): the widget's style and sender-rule columns, the eCard's form fields and
// thumbnail, case-sensitive vanity ids (binary, like share ids), what a widget send keeps (its share mode, the
// visitor's opt-in, the proven directory member), and the widget's own tables: daily counters (no IPs), the abuse
// log (no personal data), per-IP send windows (the IP hashed), and sender verification codes (hashed).
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: true });
const colour = () => text(64);

const WIDGET_COLUMNS = {
  stylebg: colour(),
  stylebghead: colour(),
  stylebgbody: colour(),
  styletext: colour(),
  styleheadtext: colour(),
  stylelink: colour(),
  style_fontsize: { type: DataTypes.INTEGER, allowNull: true },
  style_fontsize_header: { type: DataTypes.INTEGER, allowNull: true },
  widgetcss: { type: DataTypes.TEXT, allowNull: true },
  email_verification_required: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  sender_email_domains_whitelist: { type: DataTypes.TEXT, allowNull: true },
  recipient_email_domains_whitelist: { type: DataTypes.TEXT, allowNull: true },
  dir_session_timeout_minutes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 30 },
};

const ECARD_COLUMNS = {
  personal_message_box: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
  predefined_schedule_on: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  predefined_schedule_forced: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  predefined_schedule: { type: DataTypes.DATE(3), allowNull: true },
  publish_on: { type: DataTypes.DATE(3), allowNull: true },
  expire_on: { type: DataTypes.DATE(3), allowNull: true },
  /** The media file name of the 480 px WebP thumbnail of an uploaded image (the API answers its URL). */
  thumb_file: text(64),
};

const SEND_COLUMNS = {
  share_type: text(20),
  opted_in: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
  sender_member_id: { type: DataTypes.INTEGER, allowNull: true },
};

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  for (const [name, spec] of Object.entries(WIDGET_COLUMNS)) await queryInterface.addColumn('widgets', name, spec);
  for (const [name, spec] of Object.entries(ECARD_COLUMNS)) await queryInterface.addColumn('ecards', name, spec);
  for (const [name, spec] of Object.entries(SEND_COLUMNS)) await queryInterface.addColumn('sends', name, spec);
  // SQLite compares text byte by byte already; MySQL's default collation folds case.
  if (sequelize.getDialect() === 'mysql' || sequelize.getDialect() === 'mariadb') {
    await sequelize.query('ALTER TABLE widgets MODIFY vanity_id VARCHAR(32) BINARY NOT NULL');
    await sequelize.query('ALTER TABLE ecards MODIFY vanity_id VARCHAR(32) BINARY NOT NULL');
  }
  await queryInterface.createTable('widget_counters', {
    widget_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'widgets', key: 'id' }, onDelete: 'CASCADE' },
    day: { type: DataTypes.CHAR(10), allowNull: false, primaryKey: true },
    kind: { type: DataTypes.STRING(40), allowNull: false, primaryKey: true },
    account_id: { type: DataTypes.INTEGER, allowNull: false },
    count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  });
  await queryInterface.createTable('widget_abuse_events', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    account_id: { type: DataTypes.INTEGER, allowNull: false },
    widget_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'widgets', key: 'id' }, onDelete: 'CASCADE' },
    kind: { type: DataTypes.STRING(40), allowNull: false },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await queryInterface.addIndex('widget_abuse_events', ['widget_id', 'created_at']);
  await queryInterface.addIndex('widget_abuse_events', ['created_at']);
  await queryInterface.createTable('widget_send_windows', {
    widget_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: 'widgets', key: 'id' }, onDelete: 'CASCADE' },
    ip_hash: { type: DataTypes.CHAR(64), allowNull: false, primaryKey: true },
    window_start: { type: DataTypes.DATE(3), allowNull: false, primaryKey: true },
    emails: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  });
  await queryInterface.addIndex('widget_send_windows', ['window_start']);
  await queryInterface.createTable('widget_verifications', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    account_id: { type: DataTypes.INTEGER, allowNull: false },
    widget_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'widgets', key: 'id' }, onDelete: 'CASCADE' },
    email: { type: DataTypes.STRING(254), allowNull: false },
    ip_hash: { type: DataTypes.CHAR(64), allowNull: false },
    code_hash: { type: DataTypes.CHAR(64), allowNull: true },
    tries: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    expires_at: { type: DataTypes.DATE(3), allowNull: false },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await queryInterface.addIndex('widget_verifications', ['email', 'created_at']);
  await queryInterface.addIndex('widget_verifications', ['ip_hash', 'created_at']);
  await queryInterface.addIndex('widget_verifications', ['account_id', 'email']);
};

export const down: Migration = async ({ context: { queryInterface, sequelize } }) => {
  for (const table of ['widget_verifications', 'widget_send_windows', 'widget_abuse_events', 'widget_counters']) await queryInterface.dropTable(table);
  if (sequelize.getDialect() === 'mysql' || sequelize.getDialect() === 'mariadb') {
    await sequelize.query('ALTER TABLE ecards MODIFY vanity_id VARCHAR(32) NOT NULL');
    await sequelize.query('ALTER TABLE widgets MODIFY vanity_id VARCHAR(32) NOT NULL');
  }
  // ALTER TABLE on both databases (Sequelize's SQLite removeColumn rebuilds the table, cascading its referrers).
  for (const [table, columns] of [['sends', SEND_COLUMNS], ['ecards', ECARD_COLUMNS], ['widgets', WIDGET_COLUMNS]] as const) {
    for (const name of Object.keys(columns).reverse()) await sequelize.query(`ALTER TABLE ${table} DROP COLUMN ${name}`);
  }
};
