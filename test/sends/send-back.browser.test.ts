import { expect } from 'chai';
import { call, newAccount } from '../helpers/api.ts';
import { expectAccessible, newPage, screenshot } from '../helpers/browser.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { testStack } from '../helpers/stack.ts';

describe('browser: "Send one back" on the card page of a public widget’s card', function () {
  this.timeout(90_000);

  it('shows the link in the toolbar (accessible, in the page’s style) and it leads to the widget’s page', async () => {
    const stack = await testStack();
    const account = await newAccount(stack.models, 'pro');
    const widget = await insertWidget(stack.models, account.accountId);
    await widget.update({ public_share_enabled: true });
    const ecard = await insertEcard(stack.models, account.accountId, widget.id);
    await ecard.update({ email_subject: 'Happy birthday {{recipient_name}}' });
    const body = { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam Sender', recipientName: 'Alice Able', recipientEmail: 'alice-send-back@example.com' };
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key: account.liveKey, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const send = (await stack.models.Send.findOne({ where: { send_id: res.body.sendId as string } }))!;
    const recipient = await eventually(() => stack.models.SendRecipient.findOne({ where: { send_id: send.id } }), (r) => r?.rendered_html != null, 10_000);
    // Opened before: the page shows the card open, with its toolbar.
    expect((await fetch(`${stack.url}/e/${recipient!.page_id}/open`, { method: 'POST', redirect: 'manual' })).status).to.equal(303);
    const { context, page } = await newPage();
    try {
      await page.goto(`${stack.url}/e/${recipient!.page_id}`);
      const link = page.getByRole('link', { name: 'Send one back' });
      await link.waitFor({ state: 'visible' });
      expect(await link.getAttribute('href')).to.equal(`${stack.config.publicBaseUrl}/w/${widget.vanity_id}`);
      await link.scrollIntoViewIfNeeded();
      await screenshot(page, 'card-page-send-one-back');
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});
