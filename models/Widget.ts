// A widget: a container of eCards with display and behaviour configuration (`wconfig`).
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

export function defineWidget(sequelize: Sequelize) {
  class Widget extends Model<InferAttributes<Widget>, InferCreationAttributes<Widget>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare vanity_id: string;
    declare name: string;
    declare wconfig: Record<string, unknown>;
    declare dir_sender_must_be_in_directory: CreationOptional<boolean>;
    declare is_campaign: CreationOptional<boolean>;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  Widget.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      vanity_id: { type: DataTypes.STRING(32), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      wconfig: {
        type: DataTypes.TEXT,
        allowNull: false,
        get(this: Widget) {
          const raw = this.getDataValue('wconfig') as unknown;
          return (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
        },
        set(this: Widget, value: Record<string, unknown>) {
          this.setDataValue('wconfig', JSON.stringify(value) as unknown as Record<string, unknown>);
        },
      },
      dir_sender_must_be_in_directory: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      is_campaign: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      ...timestamps(),
    },
    { sequelize, tableName: 'widgets', modelName: 'Widget' },
  );
  return Widget;
}

export type WidgetModel = ReturnType<typeof defineWidget>;
export type Widget = InstanceType<WidgetModel>;
