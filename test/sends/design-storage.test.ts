import { expect } from 'chai';
import { Op } from 'sequelize';
import { loadSnapshot, saveSnapshot, type EcardDesign } from '../../services/sends/accept/snapshot.ts';
import { call, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

describe('send designs are stored once per distinct content', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
  });
  const shareLink = (ecardId: number) =>
    call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Una User', type: 'ecard_copy_link' },
    });
  const sendsOf = async () => (await stack.models.Send.findAll({ where: { account_id: account.accountId }, order: [['id', 'ASC']] })).map((s) => s.id);

  it('3 sends of one design store one design row, each send readable; an edited design is a second row', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Once' });
    for (let i = 0; i < 3; i++) expect((await shareLink(ecard.id)).body).to.include({ success: true });
    const sends = await sendsOf();
    expect(sends).to.have.length(3);
    const refs = await stack.models.SendDesignRef.findAll({ where: { send_id: sends } });
    expect(refs).to.have.length(3);
    expect(new Set(refs.map((r) => r.design_id)).size).to.equal(1);
    expect(await stack.models.SendDesign.count({ where: { id: refs[0]!.design_id } })).to.equal(1);
    expect(await stack.models.SendSnapshot.count({ where: { send_id: sends } })).to.equal(0);
    for (const pk of sends) expect(await loadSnapshot(stack, pk)).to.deep.include({ ecard_id: ecard.id, name: 'Once' });

    await ecard.update({ header: 'Edited' });
    expect((await shareLink(ecard.id)).body).to.include({ success: true });
    const [fourth] = (await sendsOf()).filter((pk) => !sends.includes(pk));
    const ref = (await stack.models.SendDesignRef.findByPk(fourth))!;
    expect(ref.design_id).to.not.equal(refs[0]!.design_id);
    expect(await loadSnapshot(stack, fourth!)).to.deep.include({ header: 'Edited' });
    expect(await loadSnapshot(stack, sends[0]!)).to.deep.include({ header: 'Happy day' });
  });

  it('reads no design for a send without a reference (the migration moved every older copy; send_snapshots is not read)', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Old form' });
    expect((await shareLink(ecard.id)).body).to.include({ success: true });
    const [pk] = await sendsOf();
    const ref = (await stack.models.SendDesignRef.findByPk(pk))!;
    const design = (await stack.models.SendDesign.findByPk(ref.design_id))!;
    expect(await loadSnapshot(stack, pk!)).to.deep.include({ ecard_id: ecard.id, name: 'Old form' });
    await ref.destroy();
    // A copy left in the old table is not a source any more.
    await stack.models.SendSnapshot.create({ send_id: pk!, design: design.design });
    expect(await stack.models.SendDesignRef.count({ where: { send_id: { [Op.eq]: pk! } } })).to.equal(0);
    expect(await loadSnapshot(stack, pk!)).to.equal(null);
  });

  it('a design stored by a transaction that rolled back is not remembered: saving it again stores it', async () => {
    const widget = await insertWidget(stack.models, account.accountId);
    const ecard = await insertEcard(stack.models, account.accountId, widget.id, { name: 'Rollback' });
    expect((await shareLink(ecard.id)).body).to.include({ success: true });
    const [pk] = await sendsOf();
    const base = (await loadSnapshot(stack, pk!))!;
    const unique = `${Date.now()}-${Math.random()}`;
    const design = (header: string): EcardDesign => ({ ...base, header: `${header} ${unique}` });
    const { sequelize } = stack.models;
    // Each save replaces the send's reference, as a send has one.
    const replace = (d: EcardDesign) =>
      sequelize.transaction(async (transaction) => {
        await stack.models.SendDesignRef.destroy({ where: { send_id: pk! }, transaction });
        await saveSnapshot(stack, pk!, d, transaction);
      });
    await sequelize
      .transaction(async (transaction) => {
        await stack.models.SendDesignRef.destroy({ where: { send_id: pk! }, transaction });
        await saveSnapshot(stack, pk!, design('Rolled back'), transaction);
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).to.equal('roll back'));
    // Another design committed after it (SQLite may hand it the rolled-back row's id), then the rolled-back one again.
    await replace(design('Other'));
    await replace(design('Rolled back'));
    expect(await loadSnapshot(stack, pk!)).to.deep.include({ header: `Rolled back ${unique}` });
    const ref = (await stack.models.SendDesignRef.findByPk(pk))!;
    expect(await stack.models.SendDesign.count({ where: { id: ref.design_id } })).to.equal(1);
  });
});
