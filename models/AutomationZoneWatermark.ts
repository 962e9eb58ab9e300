// The watermark of one zone of an automation sending at each recipient's local time (recipient_timezone): the last
// local date in that zone whose firing is handled. The automation's own `watermark` serves its one Schedule.
import { DataTypes, Model, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export function defineAutomationZoneWatermark(sequelize: Sequelize) {
  class AutomationZoneWatermark extends Model<InferAttributes<AutomationZoneWatermark>, InferCreationAttributes<AutomationZoneWatermark>> {
    declare automation_id: number;
    declare zone: string;
    declare watermark: string;
  }
  AutomationZoneWatermark.init(
    {
      automation_id: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      zone: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
      watermark: { type: DataTypes.CHAR(10), allowNull: false },
    },
    { sequelize, tableName: 'automation_zone_watermarks', modelName: 'AutomationZoneWatermark', timestamps: false },
  );
  return AutomationZoneWatermark;
}

export type AutomationZoneWatermarkModel = ReturnType<typeof defineAutomationZoneWatermark>;
