import { expect } from 'chai';
import { call, expectFailure, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';

// A NUL character (U+0000) in any text value is refused in the shared validation (it reached queries and
// answered 500; SQLite cuts a statement at it): 400 invalid_characters naming the field, nothing written.
describe('NUL characters in input', function () {
  this.timeout(30_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    account = await newAccount(stack.models);
    ecardId = (await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id)).id;
    // A member to deactivate, reactivate and delete, should the NUL get through.
    await call(stack.url, 'POST', '/v2/api/pub/team-member-actions/upsert', { key: account.liveKey, body: { email: 'kept@example.com', employee_id: 'x' } });
  });
  const rows = async () => ({
    members: await stack.models.TeamMember.count({ where: { account_id: account.accountId } }),
    disabled: await stack.models.TeamMember.count({ where: { account_id: account.accountId, disabled: true } }),
    events: await stack.models.OutboxEvent.count({ where: { account_id: account.accountId } }),
    sends: await stack.models.Send.count({ where: { account_id: account.accountId } }),
  });

  const cases: Array<[string, string, string, unknown, string]> = [
    ['GET', '/ecard/search?keyword=ca%00ke', 'keyword', undefined, 'standard'],
    ['GET', '/ecard/search?ecardIDs=1,2%00', 'ecardIDs', undefined, 'standard'],
    ['GET', '/widget/search?keyword=w%00', 'keyword', undefined, 'standard'],
    ['GET', '/pub/ecard-actions/get-ecards?widgetId=abc%00def', 'widgetId', undefined, 'standard'],
    ['GET', '/pub/team-member-actions/find?employee_id=x%00', 'employee_id', undefined, 'standard'],
    ['POST', '/pub/team-member-actions/upsert', 'employee_id', { email: 'new@example.com', employee_id: 'x\u0000y' }, 'standard'],
    ['POST', '/pub/team-member-actions/deactivate', 'employee_id', { employee_id: 'x\u0000' }, 'standard'],
    ['POST', '/pub/team-member-actions/reactivate', 'employee_id', { employee_id: 'x\u0000' }, 'standard'],
    ['POST', '/pub/team-member-actions/delete', 'employee_id', { employee_id: 'x\u0000' }, 'standard'],
    ['GET', '/webhook/deliveries?event_type=team%00', 'event_type', undefined, 'standard'],
    ['POST', '/pub/ecard-actions/send-ecard', 'recipientName', { senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Bo\u0000b', recipientEmail: 'bob@example.com' }, 'flat'],
    ['POST', '/pub/ecard-actions/send-ecard', 'mergeTags.a\\u0000', { senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Bob', recipientEmail: 'bob@example.com', mergeTags: { 'a\u0000': 'x' } }, 'flat'],
    ['POST', '/pub/ecard-actions/send-ecard', 'recipientEmail.1', { senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: ['A', 'B'], recipientEmail: ['a@example.com', 'b\u0000@example.com'] }, 'flat'],
  ];
  for (const [method, path, field, body, envelope] of cases) {
    it(`${method} ${path.split('?')[0]} with a NUL in ${field} → 400 invalid_characters${envelope === 'flat' ? ' (flat)' : ''}, nothing written`, async () => {
      const before = await rows();
      const payload = body && path.endsWith('send-ecard') ? { ecardId, ...body } : body;
      const res = await call(stack.url, method, `/v2/api${path}`, { key: account.liveKey, ...(payload === undefined ? {} : { body: payload }) });
      if (envelope === 'flat') {
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body).to.include({ success: false, reason: 'invalid_characters', code: 'invalid_characters' });
        expect(res.body).not.to.have.property('data');
        expect((res.body.messages as string[])[0]).to.include(field);
      } else {
        expect(expectFailure(res, 400, 'invalid_characters')[0]).to.include(`${field} contains a NUL character`);
      }
      expect(await rows()).to.deep.equal(before);
    });
  }
});
