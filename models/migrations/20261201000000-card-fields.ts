// The card page's and the widget's new fields (issue 30): on eCards the envelope's theme, the audio loop, the
// call-to-action's label, the cover's alt text and the Open Graph texts; on widgets their own logo, website, address
// and social links (filling what the brand leaves empty), the merge-tag fallbacks and the public share flag. Every
// existing row takes the defaults: `classic`, no loop, no texts, sharing off.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { mediumText } from '../columns.ts';

const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: true });
const flag = () => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });

const ECARD_COLUMNS = {
  envelope_theme: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'classic' },
  envelope_audio_repeat: flag(),
  ecard_link_alt_text: text(100),
  thumbnail_alt_label: text(200),
  og_title: text(100),
  og_description: text(300),
};

const WIDGET_URLS = ['logo', 'website', 'stwitter', 'sfacebook', 'sinstagram', 'slinkedin', 'syoutube'] as const;

export const up: Migration = async ({ context: { queryInterface } }) => {
  for (const [name, column] of Object.entries(ECARD_COLUMNS)) await queryInterface.addColumn('ecards', name, column);
  for (const name of WIDGET_URLS) await queryInterface.addColumn('widgets', name, text(2048));
  await queryInterface.addColumn('widgets', 'address', text(1000));
  // JSON text of tag → fallback; null reads as none. MEDIUMTEXT: 50 fallbacks of 500 characters outgrow MySQL's TEXT.
  await queryInterface.addColumn('widgets', 'merge_tag_defaults', { type: mediumText(queryInterface), allowNull: true });
  await queryInterface.addColumn('widgets', 'public_share_enabled', flag());
};

// A plain DROP COLUMN on both databases: Sequelize's SQLite removeColumn rebuilds the table, and dropping the old
// widgets table cascades (foreign keys are on) into the rows that refer to it.
export const down: Migration = async ({ context: { queryInterface } }) => {
  const drop = (table: string, column: string) =>
    queryInterface.sequelize.query(`ALTER TABLE ${queryInterface.quoteIdentifier(table)} DROP COLUMN ${queryInterface.quoteIdentifier(column)}`);
  for (const name of [...WIDGET_URLS, 'address', 'merge_tag_defaults', 'public_share_enabled']) await drop('widgets', name);
  for (const name of Object.keys(ECARD_COLUMNS)) await drop('ecards', name);
};
