// Sends keep a snapshot of their eCard's design (texts, artwork, envelope) taken when they are accepted, so a
// sent card's email and share page no longer depend on the eCard row. Existing sends get theirs from their
// eCard where it still exists. Also the index of the sends usage check (an account's sends per eCard).
import { DataTypes, QueryTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { mediumText, tableOptions } from '../columns.ts';

// The eCard columns a snapshot keeps, by the design field that holds them (the spec's names; see
// services/sends/accept/snapshot.ts). Written out here so this migration never changes with the code.
const DESIGN_COLUMNS = {
  ecard_id: 'id',
  widget_id: 'widget_id',
  name: 'name',
  emailSubject: 'email_subject',
  header: 'header',
  details: 'details',
  self_hosted_url: 'self_hosted_url',
  ecardLink: 'ecard_link',
  url_redirect_after_send: 'url_redirect_after_send',
  envelope_bg_image_url: 'envelope_bg_image_url',
  envelope_audio_url: 'envelope_audio_url',
  envelope_video_url: 'envelope_video_url',
  envelope_color_settings: 'envelope_color_settings',
  envelope_auto_open: 'envelope_auto_open',
  envelope_confetti: 'envelope_confetti',
} as const;
const FLAGS = new Set(['envelope_auto_open', 'envelope_confetti']);
const BATCH = 500;

export const up: Migration = async ({ context: { queryInterface, sequelize } }) => {
  await queryInterface.createTable(
    'send_snapshots',
    {
      send_id: { type: DataTypes.INTEGER, primaryKey: true, allowNull: false, references: { model: 'sends', key: 'id' }, onDelete: 'CASCADE' },
      design: { type: mediumText(queryInterface), allowNull: false },
    },
    tableOptions,
  );
  await queryInterface.addIndex('sends', ['account_id', 'ecard_id'], { name: 'sends_account_ecard' });

  const q = (name: string) => queryInterface.quoteIdentifier(name);
  const columns = Object.entries(DESIGN_COLUMNS).map(([field, column]) => `e.${q(column)} AS ${q(field)}`).join(', ');
  for (let after = 0; ; ) {
    const rows = await sequelize.query<Record<string, unknown> & { send_pk: number }>(
      `SELECT s.id AS send_pk, ${columns} FROM sends s JOIN ecards e ON e.id = s.ecard_id WHERE s.id > :after ORDER BY s.id LIMIT ${BATCH}`,
      { type: QueryTypes.SELECT, replacements: { after } },
    );
    if (rows.length === 0) break;
    const designs = rows.map(({ send_pk, ...design }) => ({
      send_id: send_pk,
      design: JSON.stringify(Object.fromEntries(Object.entries(design).map(([k, v]) => [k, FLAGS.has(k) ? Boolean(v) : v]))),
    }));
    await queryInterface.bulkInsert('send_snapshots', designs);
    after = rows[rows.length - 1]!.send_pk;
  }
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.removeIndex('sends', 'sends_account_ecard');
  await queryInterface.dropTable('send_snapshots');
};
