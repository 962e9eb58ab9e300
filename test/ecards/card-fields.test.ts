import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type EcardBody = Record<string, unknown> & { id: number; widgetid: number };

// The card page's fields (issue 30): saved, read, searched, copied and bulk-updated; bad values refused with nothing written.
describe('eCards: the card page fields', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
  });
  // An account per test: the key API's rate limit is per key.
  beforeEach(async () => {
    account = await newAccount(stack.models);
    widgetId = (await insertWidget(stack.models, account.accountId)).id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const create = async (fields: Record<string, unknown> = {}) =>
    expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'Card', ...fields } })) as EcardBody;
  const rowOf = async (id: number) => (await stack.models.Ecard.findByPk(id))!.get({ plain: true });

  const FIELDS = {
    ecard_mode: 'classic',
    envelope_theme: 'kraft',
    envelope_audio_repeat: true,
    ecardLinkAltText: 'Open the gift',
    thumbnail_alt_label: 'A cake with candles',
    og_title: 'A card for you',
    og_description: 'Someone sent you a card',
    envelope_color_settings: '{"envelope":"#c0ffee","liner":"rebeccapurple","text":"rgba(0, 0, 0, 0.8)"}',
  };

  const DEFAULTS = { ecard_mode: 'popup_card', envelope_theme: 'classic', envelope_audio_repeat: false };

  it('a new eCard answers the defaults: popup mode, the classic theme, no loop, no labels', async () => {
    const card = await create();
    expect(card).to.deep.include({
      ...DEFAULTS, ecardLinkAltText: null, thumbnail_alt_label: null, og_title: null, og_description: null, envelope_color_settings: null,
    });
  });

  it('findOne, search and a copy answer the defaults of an eCard saved without them', async () => {
    const card = await create();
    expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include(DEFAULTS);
    const [found] = expectSuccess(await api('GET', `/ecard/search?ecardIDs=${card.id}`)) as EcardBody[];
    expect(found).to.deep.include(DEFAULTS);
    expect(expectSuccess(await api('POST', '/ecard/copy', { ecardid: card.id }))).to.deep.include(DEFAULTS);
  });

  it('a mode stored as null (a row from before the default, or cleared) reads as popup_card everywhere', async () => {
    const card = await create({ ecard_mode: 'classic' });
    await stack.models.sequelize.query('UPDATE ecards SET ecard_mode = NULL WHERE id = :id', { replacements: { id: card.id } });
    expect(await rowOf(card.id)).to.include({ ecard_mode: null });
    expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include({ ecard_mode: 'popup_card' });
    const [found] = expectSuccess(await api('GET', `/ecard/search?ecardIDs=${card.id}`)) as EcardBody[];
    expect(found).to.deep.include({ ecard_mode: 'popup_card' });
    const copy = expectSuccess(await api('POST', '/ecard/copy', { ecardid: card.id })) as EcardBody;
    expect(copy).to.deep.include({ ecard_mode: 'popup_card' });
    const cleared = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, ecard_mode: null } })) as EcardBody;
    expect(cleared).to.deep.include({ ecard_mode: 'popup_card' });
  });

  it('saves each field, stores it in its column, and findOne and search answer it', async () => {
    const card = await create(FIELDS);
    expect(card).to.deep.include(FIELDS);
    expect(await rowOf(card.id)).to.deep.include({
      ecard_mode: 'classic', envelope_theme: 'kraft', envelope_audio_repeat: true, ecard_link_alt_text: 'Open the gift', thumbnail_alt_label: 'A cake with candles',
      og_title: 'A card for you', og_description: 'Someone sent you a card', envelope_color_settings: FIELDS.envelope_color_settings,
    });
    expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include(FIELDS);
    const found = expectSuccess(await api('GET', `/ecard/search?ecardIDs=${card.id}`)) as EcardBody[];
    expect(found).to.have.length(1);
    expect(found[0]).to.deep.include(FIELDS);
  });

  it('an update that leaves the fields out keeps them; null clears a text', async () => {
    const card = await create(FIELDS);
    const renamed = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, name: 'Renamed' } })) as EcardBody;
    expect(renamed).to.deep.include({ ...FIELDS, name: 'Renamed' });
    const cleared = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, og_title: null, envelope_theme: 'night', envelope_audio_repeat: 0 } })) as EcardBody;
    expect(cleared).to.deep.include({ og_title: null, envelope_theme: 'night', envelope_audio_repeat: false, og_description: FIELDS.og_description });
  });

  it('envelope_color_settings as an object is stored and answered as its JSON text; "" is no settings', async () => {
    const card = await create({ envelope_color_settings: { card: '#fff', accent: 'rgb(10,20,30)', background: null } });
    expect(card.envelope_color_settings).to.be.a('string');
    expect(JSON.parse(card.envelope_color_settings as string)).to.deep.equal({ card: '#fff', accent: 'rgb(10,20,30)', background: null });
    expect((await rowOf(card.id)).envelope_color_settings).to.equal(card.envelope_color_settings);
    const cleared = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, envelope_color_settings: '' } })) as EcardBody;
    expect(cleared.envelope_color_settings).to.equal(null);
  });

  describe('bad values → 400 invalid_parameter naming the field, nothing written', () => {
    const BAD: Array<[string, Record<string, unknown>, RegExp]> = [
      ['ecardLinkAltText over 100', { ecardLinkAltText: 'x'.repeat(101) }, /myEcard\.ecardLinkAltText: .*100/],
      ['thumbnail_alt_label over 200', { thumbnail_alt_label: 'x'.repeat(201) }, /myEcard\.thumbnail_alt_label: .*200/],
      ['og_title over 100', { og_title: 'x'.repeat(101) }, /myEcard\.og_title: .*100/],
      ['og_description over 300', { og_description: 'x'.repeat(301) }, /myEcard\.og_description: .*300/],
      ['an unknown envelope_theme', { envelope_theme: 'glitter' }, /myEcard\.envelope_theme/],
      ['an unknown ecard_mode', { ecard_mode: 'fullscreen' }, /myEcard\.ecard_mode/],
      ['envelope_audio_repeat not a flag', { envelope_audio_repeat: 'sometimes' }, /myEcard\.envelope_audio_repeat/],
      ['colour settings that are not JSON', { envelope_color_settings: '{envelope: red' }, /myEcard\.envelope_color_settings: .*JSON/],
      ['colour settings that are a JSON list', { envelope_color_settings: '["red"]' }, /myEcard\.envelope_color_settings: .*object/],
      ['colour settings of another type', { envelope_color_settings: 42 }, /myEcard\.envelope_color_settings: expected a JSON string or an object/],
      ['a colour that is no colour (text)', { envelope_color_settings: '{"liner":"blurple"}' }, /myEcard\.envelope_color_settings: liner: expected a colour/],
      ['a colour that is no colour (object)', { envelope_color_settings: { card: 'url(https://evil.example/x)' } }, /myEcard\.envelope_color_settings\.card: expected a colour/],
      ['a five-digit hex colour', { envelope_color_settings: '{"text":"#12345"}' }, /myEcard\.envelope_color_settings: text: expected a colour/],
      ['an unknown colour key (text)', { envelope_color_settings: '{"backgroud":"red"}' }, /myEcard\.envelope_color_settings: .*backgroud/],
      ['an unknown colour key (object)', { envelope_color_settings: { font: 'serif' } }, /myEcard\.envelope_color_settings: .*font/],
      ['colour settings over 2000 characters', { envelope_color_settings: `{"card":"red"${' '.repeat(2000)}}` }, /myEcard\.envelope_color_settings: .*2000/],
    ];
    for (const [what, fields, message] of BAD) {
      it(`save: ${what}`, async () => {
        const card = await create(FIELDS);
        const before = await stack.models.Ecard.count({ where: { account_id: account.accountId } });
        const created = expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'Bad', ...fields } }), 400, 'invalid_parameter');
        expect(created[0]).to.match(message);
        const updated = expectFailure(await api('POST', '/ecard/save', { myEcard: { id: card.id, name: 'Changed', ...fields } }), 400, 'invalid_parameter');
        expect(updated[0]).to.match(message);
        expect(await stack.models.Ecard.count({ where: { account_id: account.accountId } })).to.equal(before);
        expect(await rowOf(card.id)).to.deep.include({ name: 'Card', envelope_theme: 'kraft', envelope_color_settings: FIELDS.envelope_color_settings, og_title: FIELDS.og_title });
      });
    }
  });

  describe('copies keep the fields', () => {
    it('an eCard copy', async () => {
      const card = await create(FIELDS);
      const copy = expectSuccess(await api('POST', '/ecard/copy', { ecardid: card.id })) as EcardBody;
      expect(copy.id).not.to.equal(card.id);
      expect(copy).to.deep.include(FIELDS);
    });

    it('a widget copy', async () => {
      const widget = expectSuccess(await api('POST', '/widget/save', { widget: { name: 'Source', wconfig: {} } })) as { id: number };
      expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'Inside', ...FIELDS } }));
      const copy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widget.id })) as { id: number };
      const ecards = expectSuccess(await api('GET', `/ecard/search?widgetID=${copy.id}`)) as EcardBody[];
      expect(ecards).to.have.length(1);
      expect(ecards[0]).to.deep.include({ ...FIELDS, name: 'Inside', widgetid: copy.id });
    });
  });

  describe('bulkUpdate', () => {
    const CHANGES: Array<[string, unknown, unknown]> = [
      ['envelope_theme', 'modern', 'modern'],
      ['envelope_audio_repeat', 'true', true],
      ['ecardLinkAltText', 'Claim it', 'Claim it'],
      ['thumbnail_alt_label', 'Balloons', 'Balloons'],
      ['og_title', 'Cheers', 'Cheers'],
      ['og_description', null, null],
      ['ecard_mode', 'classic', 'classic'],
      ['envelope_color_settings', { accent: '#ABCDEF', envelope: 'navy' }, '{"envelope":"navy","accent":"#ABCDEF"}'],
      ['envelope_color_settings', '{"card":"white"}', '{"card":"white"}'],
    ];
    for (const [fieldName, fieldValue, answered] of CHANGES) {
      it(`sets ${fieldName} on every eCard of a widget (${JSON.stringify(fieldValue)})`, async () => {
        const widget = await insertWidget(stack.models, account.accountId);
        const a = expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'A', ...FIELDS } })) as EcardBody;
        const b = expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widget.id, name: 'B' } })) as EcardBody;
        expect(expectSuccess(await api('POST', '/ecard/bulkUpdate', { widgetid: widget.id, fieldName, fieldValue }))).to.deep.equal({ updated: 2 });
        for (const id of [a.id, b.id]) expect((expectSuccess(await api('GET', `/ecard/findOne/id/${id}`)) as EcardBody)[fieldName]).to.deep.equal(answered);
      });
    }

    const REFUSED: Array<[string, unknown, RegExp]> = [
      ['envelope_theme', 'glitter', /^fieldValue \(envelope_theme\)/],
      ['ecard_mode', 'fullscreen', /^fieldValue \(ecard_mode\)/],
      ['og_title', 'x'.repeat(101), /^fieldValue \(og_title\): .*100/],
      ['og_description', 'x'.repeat(301), /^fieldValue \(og_description\): .*300/],
      ['ecardLinkAltText', 'x'.repeat(101), /^fieldValue \(ecardLinkAltText\): .*100/],
      ['thumbnail_alt_label', 'x'.repeat(201), /^fieldValue \(thumbnail_alt_label\): .*200/],
      ['envelope_color_settings', 'not json', /^fieldValue \(envelope_color_settings\): .*JSON/],
      ['envelope_color_settings', '{"liner":"blurple"}', /^fieldValue \(envelope_color_settings\): liner: expected a colour/],
      ['envelope_color_settings', { card: 'javascript:alert(1)' }, /^fieldValue \(envelope_color_settings\)\.card: expected a colour/],
      ['envelope_color_settings', { shadow: '#000' }, /^fieldValue \(envelope_color_settings\): .*shadow/],
    ];
    for (const [fieldName, fieldValue, message] of REFUSED) {
      it(`refuses ${fieldName} = ${JSON.stringify(fieldValue).slice(0, 40)} (400), changing nothing`, async () => {
        const card = await create(FIELDS);
        const messages = expectFailure(await api('POST', '/ecard/bulkUpdate', { ecardids: [card.id], fieldName, fieldValue }), 400, 'invalid_parameter');
        expect(messages[0]).to.match(message);
        expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include(FIELDS);
      });
    }
  });
});
