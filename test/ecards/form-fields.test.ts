import { expect } from 'chai';
import { apiClient, expectFailure, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

type EcardBody = Record<string, unknown> & { id: number; widgetid: number; vanity_id: string };
type Json = Record<string, unknown>;

const DAY = 86_400_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

// The widget form's eCard fields (issue 31): saved, read, searched, listed by get-ecards and copied; the publish
// window; get-ecards follows the gallery's visibility rule; vanity ids are case-sensitive.
describe("eCards: the widget form's fields and the publish window", function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let widgetId: number;
  let widgetVanity: string;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
    const widget = await insertWidget(stack.models, account.accountId);
    widgetId = widget.id;
    widgetVanity = widget.vanity_id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const create = async (fields: Json = {}) => expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'Card', ...fields } })) as EcardBody;
  const getEcards = async (vanity = widgetVanity) => expectSuccess(await api('GET', `/pub/ecard-actions/get-ecards?widgetId=${vanity}`)) as Json[];

  const FIELDS = {
    personalMessageBox: false,
    predefinedScheduleOn: true,
    predefinedScheduleForced: true,
    predefinedSchedule: '2031-02-14T09:30:00.000Z',
    publishOn: '2020-01-01T00:00:00.000Z',
    expireOn: '2099-12-31T23:59:59.000Z',
  };

  it('a new eCard answers the defaults: the message box on, no predefined time, no window, thumb_image = its artwork', async () => {
    const card = await create({ self_hosted_url: 'https://cdn.example.com/art.png' });
    expect(card).to.deep.include({
      personalMessageBox: true, predefinedScheduleOn: false, predefinedScheduleForced: false, predefinedSchedule: null, publishOn: null, expireOn: null,
      thumb_image: 'https://cdn.example.com/art.png',
    });
    expect((await create()).thumb_image).to.equal(null);
  });

  it('saves each field into its column; findOne, search and get-ecards answer it (instants in UTC)', async () => {
    const card = await create({ ...FIELDS, predefinedSchedule: '2031-02-14T10:30:00+01:00' });
    expect(card).to.deep.include(FIELDS);
    const row = (await stack.models.Ecard.findByPk(card.id))!;
    expect(row).to.deep.include({ personal_message_box: false, predefined_schedule_on: true, predefined_schedule_forced: true });
    expect(row.predefined_schedule!.toISOString()).to.equal(FIELDS.predefinedSchedule);
    expect(row.publish_on!.toISOString()).to.equal(FIELDS.publishOn);
    expect(row.expire_on!.toISOString()).to.equal(FIELDS.expireOn);
    expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include(FIELDS);
    const found = expectSuccess(await api('GET', `/ecard/search?ecardIDs=${card.id}`)) as Json[];
    expect(found).to.have.length(1);
    expect(found[0]).to.deep.include(FIELDS);
    const listed = await getEcards();
    expect(listed).to.have.length(1);
    expect(listed[0]).to.deep.include({ ...FIELDS, ecardid: card.id, thumb_image: null });
  });

  it('an update that leaves them out keeps them; null clears an instant; false and true switch the flags', async () => {
    const card = await create(FIELDS);
    const renamed = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, name: 'Renamed' } })) as Json;
    expect(renamed).to.deep.include({ ...FIELDS, name: 'Renamed' });
    const cleared = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, predefinedSchedule: null, expireOn: null, personalMessageBox: 'true', predefinedScheduleForced: false } })) as Json;
    expect(cleared).to.deep.include({ predefinedSchedule: null, expireOn: null, publishOn: FIELDS.publishOn, personalMessageBox: true, predefinedScheduleOn: true, predefinedScheduleForced: false });
  });

  describe('bad values → 400 invalid_parameter naming the field, nothing written', () => {
    const BAD: Array<[string, Json, RegExp]> = [
      ['personalMessageBox not a flag', { personalMessageBox: 'sometimes' }, /myEcard\.personalMessageBox/],
      ['predefinedScheduleOn not a flag', { predefinedScheduleOn: 2 }, /myEcard\.predefinedScheduleOn/],
      ['predefinedScheduleForced not a flag', { predefinedScheduleForced: 'forced' }, /myEcard\.predefinedScheduleForced/],
      ['predefinedSchedule without a zone', { predefinedSchedule: '2031-02-14T09:30:00' }, /myEcard\.predefinedSchedule: expected an ISO 8601 date-time/],
      ['predefinedSchedule a date only', { predefinedSchedule: '2031-02-14' }, /myEcard\.predefinedSchedule/],
      ['publishOn not a date', { publishOn: 'tomorrow' }, /myEcard\.publishOn/],
      ['expireOn as a number', { expireOn: 1_900_000_000 }, /myEcard\.expireOn/],
      ['publishOn equal to expireOn', { publishOn: '2030-01-01T00:00:00Z', expireOn: '2030-01-01T00:00:00.000Z' }, /myEcard\.expireOn: must be later than publishOn/],
      ['publishOn after expireOn', { publishOn: '2030-01-02T00:00:00Z', expireOn: '2030-01-01T00:00:00Z' }, /myEcard\.expireOn: must be later than publishOn/],
    ];
    for (const [what, fields, message] of BAD) {
      it(what, async () => {
        const card = await create(FIELDS);
        const before = await stack.models.Ecard.count({ where: { account_id: account.accountId } });
        expect(expectFailure(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'Bad', ...fields } }), 400, 'invalid_parameter')[0]).to.match(message);
        expect(expectFailure(await api('POST', '/ecard/save', { myEcard: { id: card.id, name: 'Changed', ...fields } }), 400, 'invalid_parameter')[0]).to.match(message);
        expect(await stack.models.Ecard.count({ where: { account_id: account.accountId } })).to.equal(before);
        expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include({ ...FIELDS, name: 'Card' });
      });
    }

    it('the window is checked against the stored end or start on a partial update', async () => {
      const card = await create({ publishOn: '2030-01-01T00:00:00Z', expireOn: '2030-06-01T00:00:00Z' });
      expect(expectFailure(await api('POST', '/ecard/save', { myEcard: { id: card.id, publishOn: '2030-07-01T00:00:00Z' } }), 400, 'invalid_parameter')[0]).to.match(/myEcard\.expireOn: must be later than publishOn/);
      expectFailure(await api('POST', '/ecard/save', { myEcard: { id: card.id, expireOn: '2029-12-31T00:00:00Z' } }), 400, 'invalid_parameter');
      // Moving both at once, or clearing the end, is fine.
      expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, publishOn: '2030-07-01T00:00:00Z', expireOn: '2030-08-01T00:00:00Z' } }));
      expect(expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, expireOn: null, publishOn: '2031-01-01T00:00:00Z' } }))).to.deep.include({ publishOn: '2031-01-01T00:00:00.000Z', expireOn: null });
    });

    it('bulkUpdate keeps the spec\'s field list: the new fields are not among them', async () => {
      const card = await create(FIELDS);
      for (const fieldName of ['personalMessageBox', 'publishOn', 'expireOn', 'predefinedSchedule']) {
        expectFailure(await api('POST', '/ecard/bulkUpdate', { ecardids: [card.id], fieldName, fieldValue: null }), 400, 'invalid_parameter');
      }
      expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include(FIELDS);
    });
  });

  describe('copies keep the fields', () => {
    it('an eCard copy', async () => {
      const card = await create(FIELDS);
      const copy = expectSuccess(await api('POST', '/ecard/copy', { ecardid: card.id })) as EcardBody;
      expect(copy.id).not.to.equal(card.id);
      expect(copy).to.deep.include(FIELDS);
    });

    it('a widget copy', async () => {
      await create(FIELDS);
      const copy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widgetId })) as { id: number };
      const ecards = expectSuccess(await api('GET', `/ecard/search?widgetID=${copy.id}`)) as Json[];
      expect(ecards).to.have.length(1);
      expect(ecards[0]).to.deep.include({ ...FIELDS, widgetid: copy.id });
    });

    it("a campaign's copies", async () => {
      const card = await create(FIELDS);
      const campaign = expectSuccess(await api('POST', '/campaign/save', { campaign: { campaign_name: 'Spring', from_name: 'HR', from_email: 'hr@example.com' } })) as Json;
      const saved = expectSuccess(await api('POST', '/campaign/saveCampaignEcards', { campaignid: campaign.id, ecardIds: [card.id] })) as Json;
      const [copyId] = saved.ecard_ids as number[];
      expect(copyId).not.to.equal(card.id);
      expect(expectSuccess(await api('GET', `/ecard/findOne/id/${copyId!}`))).to.deep.include(FIELDS);
    });
  });

  describe('get-ecards follows the gallery: enabled and published eCards only', () => {
    it('leaves out disabled, not yet published and expired eCards; lists those inside their window', async () => {
      const open = await create({ name: 'Open' });
      const inWindow = await create({ name: 'In window', publishOn: at(-DAY), expireOn: at(DAY) });
      await create({ name: 'Disabled', disabled: true });
      await create({ name: 'Later', publishOn: at(DAY) });
      await create({ name: 'Expired', publishOn: at(-2 * DAY), expireOn: at(-DAY) });
      await create({ name: 'Disabled in window', disabled: true, publishOn: at(-DAY) });
      expect((await getEcards()).map((e) => e.name)).to.deep.equal(['Open', 'In window']);
      expect((await getEcards()).map((e) => e.ecardid)).to.deep.equal([open.id, inWindow.id]);
      // findOne and search still show every eCard to its owner.
      expect(expectSuccess(await api('GET', `/ecard/search?widgetID=${widgetId}`))).to.have.length(6);
    });

    it('an eCard whose start has passed shows; one whose end has passed goes', async () => {
      const card = await create({ name: 'Soon', publishOn: at(DAY) });
      expect(await getEcards()).to.have.length(0);
      expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, publishOn: at(-1000) } }));
      expect((await getEcards()).map((e) => e.name)).to.deep.equal(['Soon']);
      expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, expireOn: at(-500) } }));
      expect(await getEcards()).to.have.length(0);
    });
  });

  it("vanity ids are case-sensitive: the widget's vanity id with its case changed is not found (404)", async () => {
    await create({ name: 'Here' });
    const swapped = [...widgetVanity].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    expect(swapped).not.to.equal(widgetVanity);
    expect((await getEcards()).map((e) => e.name)).to.deep.equal(['Here']);
    expectFailure(await api('GET', `/pub/ecard-actions/get-ecards?widgetId=${swapped}`), 404, 'not_found');
  });
});
