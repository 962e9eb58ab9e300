// rawReader reads a row by column name, while Sequelize's `raw: true` keys a row by attribute name (the widget
// list): a model whose column is named apart from its attribute would read as nulls, so such a model is refused.
import { expect } from 'chai';
import { DataTypes, Sequelize } from 'sequelize';
import { createModels } from '../../models/index.ts';
import { rawReader } from '../../models/raw-rows.ts';

// Models are defined without a connection: nothing here reaches a database.
const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });

describe('unit: rawReader refuses a model whose column names differ from its attribute names', () => {
  after(() => sequelize.close());

  it('throws when the reader is made for a model with a renamed column (`field:`)', () => {
    const Renamed = sequelize.define('Renamed', { id: { type: DataTypes.INTEGER, primaryKey: true }, displayName: { type: DataTypes.STRING, field: 'display_name' } }, { tableName: 'renamed', timestamps: false });
    expect(() => rawReader(Renamed, 'r')).to.throw('rawReader(Renamed): attribute displayName is column display_name');
    expect(() => rawReader(Renamed, 'r', { only: ['id'] })).to.throw('attribute displayName is column display_name');
  });

  it('makes the readers of the models read so (widgets, eCards, brands, accounts), their columns named as their attributes', () => {
    const models = createModels(sequelize);
    expect(rawReader(models.Widget, 'widgets').columns).to.match(/^widgets\.id, widgets\.account_id, /);
    expect(rawReader(models.Ecard, 'e', { prefix: 'e_' }).columns).to.match(/^e\.id AS e_id, /);
    expect(rawReader(models.Brand, 'b', { prefix: 'b_', only: ['id', 'name'] }).columns).to.equal('b.id AS b_id, b.name AS b_name');
    expect(rawReader(models.Account, 'a', { only: ['id'] }).columns).to.equal('a.id');
    const row = { id: 7, name: 'W' };
    expect(rawReader(models.Brand, 'b', { only: ['id', 'name'] }).decode(row)).to.deep.equal(row);
  });
});
