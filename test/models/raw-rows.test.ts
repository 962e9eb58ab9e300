// The written-out reads give a row's values as the model's instance does: getters (JSON kept as text, a BIGINT
// read as a number), booleans and dates included, on both databases.
import { expect } from 'chai';
import { DataTypes, QueryTypes } from 'sequelize';
import { rawReader } from '../../models/raw-rows.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('rawReader: a row as the model reads it', function () {
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
  });

  it('a widget (JSON columns through their getters, booleans) and its eCard (dates) equal their instances', async () => {
    const { models } = stack;
    const widget = await insertWidget(models, account.accountId, { dir_sender_must_be_in_directory: true });
    await widget.update({ wconfig: { locale: 'fr', nested: { a: [1, 2] } }, merge_tag_defaults: { first_name: 'ami' } });
    const ecard = await insertEcard(models, account.accountId, widget.id);
    await ecard.update({ publish_on: new Date('2026-11-27T10:00:00.123Z') });
    const widgets = rawReader(models.Widget, 'w', { prefix: 'w_' });
    const ecards = rawReader(models.Ecard, 'e');
    const [row] = await models.sequelize.query<Record<string, unknown>>(`SELECT ${widgets.columns}, ${ecards.columns} FROM widgets w JOIN ecards e ON e.widget_id = w.id WHERE w.id = :id`, {
      type: QueryTypes.SELECT,
      replacements: { id: widget.id },
    });
    const plainWidget = (await models.Widget.findByPk(widget.id))!.get({ plain: true });
    const plainEcard = (await models.Ecard.findByPk(ecard.id))!.get({ plain: true });
    expect(widgets.decode(row!)).to.deep.equal(plainWidget);
    expect(widgets.decode(row!)).to.deep.include({ wconfig: { locale: 'fr', nested: { a: [1, 2] } }, merge_tag_defaults: { first_name: 'ami' }, dir_sender_must_be_in_directory: true });
    expect(ecards.decode(row!)).to.deep.equal(plainEcard);
    expect(ecards.decode(row!).publish_on).to.deep.equal(new Date('2026-11-27T10:00:00.123Z'));
  });

  it('a brand (social through its getter) by some of its columns; a LEFT JOIN that finds nothing is null', async () => {
    const { models } = stack;
    const brand = await models.Brand.create({ account_id: account.accountId, default_for: null, name: 'Raw', logo_url: null, website: null, address: null, primary_color: '#112233', accent_color: null, background_color: null, text_color: null, footer_text: null, social: { twitter: 'https://x.example/raw', facebook: null, instagram: null, linkedin: null, youtube: null } });
    const brands = rawReader(models.Brand, 'b', { prefix: 'b_', only: ['id', 'name', 'primary_color', 'social'] });
    const select = (id: number) =>
      models.sequelize.query<Record<string, unknown>>(`SELECT ${brands.columns} FROM (SELECT 1 AS one) base LEFT JOIN brands b ON b.id = :id`, { type: QueryTypes.SELECT, replacements: { id } });
    const [found] = await select(brand.id);
    expect(brands.decodeJoined(found!)).to.deep.equal({ id: brand.id, name: 'Raw', primary_color: '#112233', social: brand.social });
    expect(brand.social).to.deep.include({ twitter: 'https://x.example/raw', youtube: null });
    const [missing] = await select(brand.id + 100_000);
    expect(brands.decodeJoined(missing!)).to.equal(null);
  });

  // No model keeps a DataTypes.JSON column today (they keep JSON as text behind a getter), so a probe model's table
  // is made here: the reader must give what the model's instance gives, on both databases (MariaDB's JSON is text).
  it('a DataTypes.JSON column is decoded from its type as the instance reads it; a joined row is told by a column that is never NULL', async () => {
    const { sequelize } = stack.models;
    const Probe = sequelize.define('RawReaderJsonProbe', {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      doc: { type: DataTypes.JSON, allowNull: true },
      label: { type: DataTypes.STRING(20), allowNull: false },
    }, { tableName: 'raw_reader_json_probe', timestamps: false });
    try {
      await Probe.sync({ force: true });
      const doc = { a: [1, 'two', null], b: { c: true, d: 'it\'s "quoted"' } };
      const made = [await Probe.create({ doc, label: 'x' }), await Probe.create({ doc: null, label: 'y' })];
      const reader = rawReader(Probe, 'p', { prefix: 'p_', only: ['doc', 'label'] });
      for (const probe of made) {
        const [row] = await sequelize.query<Record<string, unknown>>(`SELECT ${reader.columns} FROM (SELECT 1 AS one) base LEFT JOIN raw_reader_json_probe p ON p.id = :id`, { type: QueryTypes.SELECT, replacements: { id: probe.get('id') } });
        const plain = (await Probe.findByPk(probe.get('id') as number))!.get({ plain: true }) as Record<string, unknown>;
        expect(reader.decodeJoined(row!)).to.deep.equal({ doc: plain.doc, label: plain.label });
      }
      expect(reader.decode({ p_doc: JSON.stringify(doc), p_label: 'x' })).to.deep.equal({ doc, label: 'x' });
      expect(reader.decodeJoined({ p_doc: null, p_label: null })).to.equal(null);
    } finally {
      await Probe.drop();
      sequelize.modelManager.removeModel(Probe);
    }
  });

  it('one reader per model and shape; an attribute the model lacks is refused', () => {
    const { models } = stack;
    expect(rawReader(models.Ecard, 'e')).to.equal(rawReader(models.Ecard, 'e'));
    expect(rawReader(models.Ecard, 'e')).to.not.equal(rawReader(models.Ecard, 'e', { prefix: 'e_' }));
    expect(() => rawReader(models.Brand, 'b', { only: ['nope' as never] })).to.throw('no attribute nope');
  });
});
