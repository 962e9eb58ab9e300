// Widgets and their eCards, uploaded media files, and one-time confirmation tokens.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';
import { accountRef, idColumn, mediumText, tableOptions, timestamp, timestamps } from '../columns.ts';

const url = () => ({ type: DataTypes.STRING(2048), allowNull: true });
const flag = (defaultValue = false) => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue });

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.createTable(
    'widgets',
    {
      id: idColumn(),
      account_id: accountRef(),
      vanity_id: { type: DataTypes.STRING(32), allowNull: false, unique: true },
      name: { type: DataTypes.STRING(200), allowNull: false },
      // JSON text: the object as the client sent it.
      wconfig: { type: mediumText(queryInterface), allowNull: false },
      dir_sender_must_be_in_directory: flag(),
      // Backing widget of a campaign: hidden from widget search, changed only by the campaign endpoints.
      is_campaign: flag(),
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('widgets', ['account_id', 'created_at']);

  await queryInterface.createTable(
    'ecards',
    {
      id: idColumn(),
      account_id: accountRef(),
      widget_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'widgets', key: 'id' }, onDelete: 'CASCADE' },
      vanity_id: { type: DataTypes.STRING(32), allowNull: false, unique: true },
      name: { type: DataTypes.STRING(200), allowNull: false },
      email_subject: { type: DataTypes.STRING(500), allowNull: true },
      header: { type: DataTypes.STRING(500), allowNull: true },
      details: { type: mediumText(queryInterface), allowNull: true },
      ecard_link: url(),
      url_redirect_after_send: url(),
      disabled: flag(),
      can_schedule: flag(true),
      ecardbrandid: { type: DataTypes.INTEGER, allowNull: true },
      ecard_mode: { type: DataTypes.STRING(50), allowNull: true },
      envelope_bg_image_url: url(),
      envelope_audio_url: url(),
      envelope_video_url: url(),
      envelope_color_settings: { type: DataTypes.TEXT, allowNull: true },
      envelope_auto_open: flag(),
      envelope_confetti: flag(),
      self_hosted_url: url(),
      display_order: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      // The widget's price for this eCard (`ecardPrices`); it goes with the eCard.
      price: { type: DataTypes.DECIMAL(10, 2), allowNull: true },
      ...timestamps(),
    },
    tableOptions,
  );
  await queryInterface.addIndex('ecards', ['account_id', 'created_at']);
  await queryInterface.addIndex('ecards', ['widget_id', 'display_order']);

  await queryInterface.createTable(
    'media_files',
    {
      id: idColumn(),
      account_id: accountRef(),
      // Generated, never taken from input: <random>.<ext of the sniffed type>.
      file_name: { type: DataTypes.STRING(64), allowNull: false, unique: true },
      content_type: { type: DataTypes.STRING(32), allowNull: false },
      size_bytes: { type: DataTypes.INTEGER, allowNull: false },
      created_at: timestamp(),
    },
    tableOptions,
  );

  await queryInterface.createTable(
    'confirmation_tokens',
    {
      id: idColumn(),
      account_id: accountRef(),
      purpose: { type: DataTypes.STRING(40), allowNull: false },
      // The resource it confirms (a widget or eCard id), or null for purposes without one.
      resource_id: { type: DataTypes.STRING(64), allowNull: true },
      token_hash: { type: DataTypes.CHAR(64).BINARY, allowNull: false, unique: true },
      expires_at: timestamp(),
      used_at: timestamp(true),
      created_at: timestamp(),
    },
    tableOptions,
  );
};

export const down: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.dropTable('confirmation_tokens');
  await queryInterface.dropTable('media_files');
  await queryInterface.dropTable('ecards');
  await queryInterface.dropTable('widgets');
};
