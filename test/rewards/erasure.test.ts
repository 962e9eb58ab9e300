import { expect } from 'chai';
import type { DataKeys } from '../../lib/data-key.ts';
import { apiClient, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { seedGift } from './claim-seed.ts';

describe('rewards: erasing a member clears its gift orders and voids their claim pages', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let keys: DataKeys;
  let account: TestAccount;
  before(async () => {
    stack = await testStack();
    keys = stack.services.dataKeys!;
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const claimPage = async (method: 'GET' | 'POST', token: string) => (await fetch(`${stack.url}/g/${token}`, { method })).status;

  it('orders for the member (by id, or by its address in any case) lose the recipient and answer 404; others stay', async () => {
    const member = (expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: 'gift.erasable@example.com', first_name: 'Gifty' })) as { member: { id: number } }).member;
    const other = (expectSuccess(await api('POST', '/pub/team-member-actions/upsert', { email: 'gift.keeper@example.com' })) as { member: { id: number } }).member;
    const seed = (memberId: number | null, recipientEmail: string) =>
      seedGift(stack.models, keys, account.accountId, { code: `ERASE-${Date.now()}-${Math.random().toString(36).slice(2)}`, memberId, recipientEmail });
    const byId = await seed(member.id, 'gift.erasable@example.com');
    const byAddress = await seed(null, 'Gift.Erasable@Example.com');
    const kept = await seed(other.id, 'gift.keeper@example.com');
    // Another account's order to the same address is not this account's to erase.
    const elsewhere = await seedGift(stack.models, keys, (await newAccount(stack.models)).accountId, { code: `ERASE-${Date.now()}-x`, recipientEmail: 'gift.erasable@example.com' });
    expect(await claimPage('GET', byId.token)).to.equal(200);

    expectSuccess(await api('POST', '/pub/team-member-actions/delete', { email: 'gift.erasable@example.com' }));

    for (const gift of [byId, byAddress]) {
      await gift.order.reload();
      expect(gift.order.recipient_name).to.equal(null);
      expect(gift.order.recipient_email).to.equal(null);
      expect(gift.order.claim_token_hash).to.equal(null);
      expect(gift.order.voided).to.equal(true);
      // The order itself stays (spend and analytics count it).
      expect(gift.order.fulfillment_status).to.equal('fulfilled');
      expect(await claimPage('GET', gift.token)).to.equal(404);
      expect(await claimPage('POST', gift.token)).to.equal(404);
    }
    for (const gift of [kept, elsewhere]) {
      await gift.order.reload();
      expect(gift.order.voided).to.equal(false);
      expect(gift.order.recipient_email).not.to.equal(null);
      expect(await claimPage('GET', gift.token)).to.equal(200);
    }
  });
});
