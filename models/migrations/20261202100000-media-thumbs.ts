// Thumbnails of uploads (issue 31): each stored image keeps the name of its 480 px WebP thumbnail, made at upload
// or by a background pass for uploads older than this (null: not tried yet; "": none can be made, e.g. a corrupt
// or oversized image). The thumbnail is no row of its own, so it never counts in the media quota.
import { DataTypes } from 'sequelize';
import type { Migration } from '../migrator.ts';

export const up: Migration = async ({ context: { queryInterface } }) => {
  await queryInterface.addColumn('media_files', 'thumb_file_name', { type: DataTypes.STRING(64), allowNull: true });
};

// ALTER TABLE on both databases, as the other migrations drop columns.
export const down: Migration = async ({ context: { sequelize } }) => {
  await sequelize.query('ALTER TABLE media_files DROP COLUMN thumb_file_name');
};
