// An uploaded image, stored by the media store under a generated name.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn } from './columns.ts';

export function defineMediaFile(sequelize: Sequelize) {
  class MediaFile extends Model<InferAttributes<MediaFile>, InferCreationAttributes<MediaFile>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare file_name: string;
    declare content_type: string;
    declare size_bytes: number;
    /** Its 480 px WebP thumbnail in the media store: null not made yet (the background pass makes it), "" none can be made. */
    declare thumb_file_name: CreationOptional<string | null>;
    declare created_at: CreationOptional<Date>;
  }
  MediaFile.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      file_name: { type: DataTypes.STRING(64), allowNull: false },
      content_type: { type: DataTypes.STRING(32), allowNull: false },
      size_bytes: { type: DataTypes.INTEGER, allowNull: false },
      thumb_file_name: { type: DataTypes.STRING(64), allowNull: true },
      created_at: { type: DataTypes.DATE(3), allowNull: false },
    },
    { sequelize, tableName: 'media_files', modelName: 'MediaFile', updatedAt: false },
  );
  return MediaFile;
}

export type MediaFileModel = ReturnType<typeof defineMediaFile>;
export type MediaFile = InstanceType<MediaFileModel>;
