// The personal message's one limit on every way in: the key API's send-ecard, the console's Send page, the widget's
// JSON send and its no-JavaScript form. A message of exactly the limit is taken; one character more is refused with
// a message that names the limit, and nothing is sent. The forms' maxlength is that same limit.
import { expect } from 'chai';
import { PERSONAL_MESSAGE_MAX } from '../../services/sends/accept/personal-message.ts';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { call, newAccount, type ApiResponse, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { ownerOnPages } from '../helpers/console.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { address, formToken, postSend, sendBody } from '../widgets/send-helpers.ts';

const atLimit = 'x'.repeat(PERSONAL_MESSAGE_MAX);
const overLimit = 'x'.repeat(PERSONAL_MESSAGE_MAX + 1);

/** send-ecard's and the widget's answers are flat: a success has the send's id, a refusal its code and messages. */
function expectSent(res: ApiResponse): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.sendId).to.be.a('string');
}
function expectTooLong(res: ApiResponse): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body).to.deep.include({ success: false, code: 'invalid_parameter', messages: ['personalMessage: at most 20,000 characters'] });
}

describe('the personal message’s limit, alike on the key API, the console and the widget', function () {
  this.timeout(60_000);
  let stack: TestStack;
  before(async () => {
    stack = await testStack();
  });

  describe('the key API (send-ecard)', () => {
    let account: TestAccount;
    let ecardId: number;
    before(async () => {
      const made = await accountWithWidget(stack);
      account = made.account;
      ecardId = made.ecard.id;
    });
    const send = (personalMessage: string) =>
      call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', type: 'ecard_copy_link', personalMessage } });

    it('takes a message of exactly the limit', async () => {
      expectSent(await send(atLimit));
    });

    it('refuses one character more: 400 naming the field and the limit', async () => {
      expectTooLong(await send(overLimit));
    });
  });

  describe('the console’s Send page', () => {
    let browser: Awaited<ReturnType<typeof ownerOnPages>>['browser'];
    let csrf: string;
    let accountId: number;
    let ecardId: number;
    before(async () => {
      const owner = await ownerOnPages(stack, 'pro');
      ({ browser, csrf } = owner);
      accountId = owner.account.accountId;
      const widget = await insertWidget(stack.models, accountId);
      ecardId = (await insertEcard(stack.models, accountId, widget.id)).id;
    });
    const post = (message: string) =>
      browser.post('/v2/console/send', {
        _csrf: csrf, form_key: crypto.randomUUID(), ecardid: String(ecardId), sender_name: 'Sam', sender_email: 'sam@example.com', message,
        recipient_name_1: 'Rita', recipient_email_1: '', delivery: 'link', send_at: '', timezone: 'UTC',
      });

    it('the message box’s maxlength is the limit', async () => {
      expect(await (await browser.get('/v2/console/send')).text()).to.include(`name="message" rows="4" maxlength="${PERSONAL_MESSAGE_MAX}"`);
    });

    it('takes a message of exactly the limit (its line breaks, posted as CRLF, count one each)', async () => {
      const res = await post(`${'x'.repeat(PERSONAL_MESSAGE_MAX - 10)}\r\n${'y'.repeat(9)}`);
      expect(res.status, await res.clone().text()).to.equal(303);
    });

    it('refuses one character more: 400 with the limit beside the field, nothing sent', async () => {
      const before = await stack.models.Send.count({ where: { account_id: accountId } });
      const res = await post(overLimit);
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include('id="message-error">The personal message is too long: at most 20,000 characters.');
      expect(await stack.models.Send.count({ where: { account_id: accountId } })).to.equal(before);
    });
  });

  describe('the widget', () => {
    let widget: Awaited<ReturnType<typeof insertPublicWidget>>['widget'];
    let ecard: Awaited<ReturnType<typeof insertPublicWidget>>['ecards'][number];
    before(async () => {
      const account = await newAccount(stack.models);
      const made = await insertPublicWidget(stack.models, account.accountId);
      widget = made.widget;
      ecard = made.ecards[0]!;
    });
    const formPost = (personalMessage: string) =>
      fetch(`${stack.url}/w/${widget.vanity_id}/send`, {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams({
          form_token: formToken(stack, widget), fax_number: '', ecard: ecard.vanity_id, share_mode: 'ecard_copy_link', sender_name: 'Sam', sender_email: address('sam'),
          'recipients[0][name]': 'Rita', 'recipients[0][email]': '', personalMessage, sendAt: '',
        }),
      });

    it('the form’s message box has the limit as its maxlength', async () => {
      const html = await (await fetch(`${stack.url}/w/${widget.vanity_id}/e/${ecard.vanity_id}`)).text();
      expect(html).to.include(`<textarea name="personalMessage" rows="4" maxlength="${PERSONAL_MESSAGE_MAX}"`);
    });

    it('the JSON send takes exactly the limit and refuses one more with the limit named', async () => {
      expectSent(await postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecard, { share_mode: 'ecard_copy_link', personalMessage: atLimit })));
      expectTooLong(await postSend(stack.url, widget.vanity_id, sendBody(stack, widget, ecard, { share_mode: 'ecard_copy_link', personalMessage: overLimit })));
    });

    it('the no-JavaScript form takes exactly the limit', async () => {
      const res = await formPost(atLimit);
      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.match(/\/sent\?/);
    });

    it('the no-JavaScript form refuses one more: back to the form, which says the message is too long and names the limit', async () => {
      const res = await formPost(overLimit);
      expect(res.status).to.equal(303);
      const back = res.headers.get('location')!;
      expect(back).to.equal(`/w/${widget.vanity_id}/e/${ecard.vanity_id}?error=message_too_long`);
      const html = await (await fetch(`${stack.url}${back}`)).text();
      expect(html).to.include('role="alert" data-slot="error">The personal message is too long: at most 20,000 characters.</div>');
    });
  });
});
