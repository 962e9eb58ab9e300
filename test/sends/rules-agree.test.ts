// One owner per rule: where a hot read needs a rule in SQL and other code needs it in TypeScript, both forms come
// from one module, and here both run on the same rows (on the pass's database: SQLite or MariaDB) and must agree; a
// rule two reads apply in code (a card page's visibility) is checked through both reads.
import { expect } from 'chai';
import { randomId } from '../../lib/ids.ts';
import { QueryTypes } from 'sequelize';
import { RECIPIENT_STATUSES } from '../../models/SendRecipient.ts';
import { brandJoinsSql, resolveBrand } from '../../services/brands/brands.ts';
import { SEND_STATUSES } from '../../services/sends/log/log.ts';
import { readOwnPage } from '../../services/sends/card-page/page-read.ts';
import { findPage } from '../../services/sends/card-page/share-page.ts';
import { isVisible, visibleEcardsWhere } from '../../services/widgets/public/public.ts';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('rules written in SQL and in code agree on the same rows', function () {
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models, 'pro');
  });

  it('a recipient\'s own page shows, alike in its hot read and in findPage: every recipient status, rendered or not, under every send status', async () => {
    const { models, services } = stack;
    const widget = await insertWidget(models, account.accountId);
    const ecard = await insertEcard(models, account.accountId, widget.id);
    const pages: string[] = [];
    for (const sendStatus of SEND_STATUSES) {
      const send = await models.Send.create({
        send_id: crypto.randomUUID(), account_id: account.accountId, ecard_id: ecard.id, widget_id: widget.id, mode: 'email', status: sendStatus,
        sandbox: false, sender_name: 'Sam', sender_email: 'sam@example.com', personal_message: null, locale: 'en', merge_tags: null,
        override_props: null, send_at: new Date(), stat_vanity_id: randomId(24), quota_month: null, quota_count: 0,
      });
      let position = 0;
      for (const status of RECIPIENT_STATUSES) {
        for (const rendered of [null, '<p>card</p>']) {
          const pageId = randomId(24);
          pages.push(pageId);
          await models.SendRecipient.create({ send_id: send.id, position: ++position, recipient_name: 'Rita', recipient_email: `r${position}@example.com`, status, rendered_html: rendered, page_id: pageId });
        }
      }
    }
    const hot = await Promise.all(pages.map(async (pageId) => (await readOwnPage(services, pageId)) != null));
    const found = await Promise.all(pages.map(async (pageId) => (await findPage(services, pageId)) !== null));
    expect(hot).to.deep.equal(found);
    // Not all the same: only a rendered card, not failed or canceled, of a pending or sent send shows.
    expect(found.filter(Boolean)).to.have.length(2 * 2);
  });

  it('an eCard is visible in the gallery: disabled or not, before, inside and after its publish window', async () => {
    const { models } = stack;
    const widget = await insertWidget(models, account.accountId);
    const now = new Date('2026-12-05T12:00:00.000Z');
    const at = (ms: number) => new Date(now.getTime() + ms);
    const windows: Array<[Date | null, Date | null]> = [[null, null], [at(-1000), null], [at(1000), null], [now, null], [null, at(1000)], [null, now], [null, at(-1000)], [at(-1000), at(1000)], [at(1000), at(2000)]];
    for (const disabled of [false, true]) {
      for (const [publishOn, expireOn] of windows) {
        const ecard = await insertEcard(models, account.accountId, widget.id);
        await ecard.update({ disabled, publish_on: publishOn, expire_on: expireOn });
      }
    }
    const all = await models.Ecard.findAll({ where: { widget_id: widget.id } });
    const queried = await models.Ecard.findAll({ where: { widget_id: widget.id, ...visibleEcardsWhere(now) } });
    expect(queried.map((e) => e.id).sort((a, b) => a - b)).to.deep.equal(all.filter((e) => isVisible(e, now)).map((e) => e.id).sort((a, b) => a - b));
    // Of the enabled nine: no window, published a second ago or at this instant, expiring in a second, and a window
    // around now (an expiry at this instant has passed).
    expect(queried).to.have.length(5);
  });

  it('the brand a card shows: the one it names (its own account\'s), else the account\'s default, else none', async () => {
    const { models } = stack;
    const other = await newAccount(models, 'pro');
    const brandless = await newAccount(models, 'pro');
    const brand = (accountId: number, name: string) =>
      models.Brand.create({ account_id: accountId, default_for: null, name, logo_url: null, website: null, address: null, primary_color: '#112233', accent_color: null, background_color: null, text_color: null, footer_text: null, social: { twitter: null, facebook: null, instagram: null, linkedin: null, youtube: null } });
    // Every account is made with its default brand; one without any is an old account's case.
    const house = (await models.Brand.findOne({ where: { account_id: account.accountId, default_for: account.accountId } }))!;
    const named = await brand(account.accountId, 'Named');
    const foreign = await brand(other.accountId, 'Foreign');
    await models.Brand.destroy({ where: { account_id: brandless.accountId } });
    const cases: Array<[number, number | null]> = [
      [account.accountId, named.id], [account.accountId, null], [account.accountId, foreign.id], [account.accountId, 2_000_000_000],
      [brandless.accountId, null], [brandless.accountId, named.id],
    ];
    const shown = [];
    for (const [accountId, brandId] of cases) {
      const [row] = await models.sequelize.query<{ b_id: number | null; d_id: number | null }>(
        `SELECT b.id AS b_id, d.id AS d_id FROM (SELECT 1 AS one) card ${brandJoinsSql(':brandId', ':accountId')}`,
        { type: QueryTypes.SELECT, replacements: { brandId, accountId } },
      );
      const inSql = row!.b_id ?? row!.d_id;
      const inCode = (await resolveBrand({ models }, accountId, brandId))?.id ?? null;
      expect(inSql, `account ${accountId}, brand ${brandId}`).to.equal(inCode);
      shown.push(inCode);
    }
    expect(shown).to.deep.equal([named.id, house.id, house.id, house.id, null, null]);
  });
});
