// The no-JavaScript send: POST /w/{vanity_id}/send with the contract's names flattened, answered with 303s.
import { expect } from 'chai';
import { newAccount, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { insertPublicWidget } from '../helpers/public-widget.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { address, formToken } from './send-helpers.ts';

describe('widget send: the no-JavaScript form (POST /w/{vanity_id}/send)', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let widget: Awaited<ReturnType<typeof insertPublicWidget>>['widget'];
  let ecardVanity: string;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
    const made = await insertPublicWidget(stack.models, account.accountId);
    widget = made.widget;
    ecardVanity = made.ecards[0]!.vanity_id;
  });
  const fields = (extra: Record<string, string> = {}) => ({
    form_token: formToken(stack, widget),
    fax_number: '',
    ecard: ecardVanity,
    share_mode: 'email',
    sender_name: 'Sam',
    sender_email: address('sam'),
    'recipients[0][name]': 'Ann',
    'recipients[0][email]': address('ann'),
    'recipients[1][name]': 'Ben',
    'recipients[1][email]': address('ben'),
    // A spare row the visitor left blank.
    'recipients[2][name]': '',
    'recipients[2][email]': '',
    personalMessage: 'Happy day',
    sendAt: '',
    optedIn: 'on',
    ...extra,
  });
  const post = (form: Record<string, string>, vanity = widget.vanity_id, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}/w/${vanity}/send`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(form), headers });

  it('an email send → 303 to the thank-you page; both recipients get their email; the opt-in is kept', async () => {
    const form = fields();
    const res = await post(form);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/w/${widget.vanity_id}/sent?ecard=${ecardVanity}&mode=email`);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const to = [form['recipients[0][email]'], form['recipients[1][email]']];
    await eventually(async () => to.flatMap((a) => smtp.to(a)), (m) => m.length === 2, 20_000);
    const [send] = await stack.models.Send.findAll({ where: { account_id: account.accountId } });
    expect(send).to.deep.include({ origin: 'widget', share_type: 'email', opted_in: true });
  });

  it('a share mode → 303 to the thank-you page with the share URL', async () => {
    const res = await post(fields({ share_mode: 'facebook', 'recipients[0][email]': '', 'recipients[1][name]': '', 'recipients[1][email]': '' }));
    expect(res.status).to.equal(303);
    const location = new URL(res.headers.get('location')!, stack.url);
    expect(location.pathname).to.equal(`/w/${widget.vanity_id}/sent`);
    const [send] = await stack.models.Send.findAll({ where: { account_id: account.accountId } });
    expect(Object.fromEntries(location.searchParams)).to.deep.equal({ ecard: ecardVanity, mode: 'facebook', share: `${stack.config.publicBaseUrl}/e/${send!.stat_vanity_id}` });
  });

  it('a refusal → 303 back to the card\'s form with ?error=<code>', async () => {
    await widget.update({ recipient_email_domains_whitelist: 'corp.example' });
    const res = await post(fields());
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/w/${widget.vanity_id}/e/${ecardVanity}?error=finvalid`);
  });

  it('a stale form → ?error=form_expired', async () => {
    const res = await post(fields({ form_token: formToken(stack, widget, 3 * 3600 * 1000) }));
    expect(res.headers.get('location')).to.equal(`/w/${widget.vanity_id}/e/${ecardVanity}?error=form_expired`);
  });

  it('a malformed form (no sender) → ?error=invalid_parameter, nothing sent', async () => {
    const res = await post(fields({ sender_email: '' }));
    expect(res.headers.get('location')).to.equal(`/w/${widget.vanity_id}/e/${ecardVanity}?error=invalid_parameter`);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('a filled honeypot → the same 303 as a success, nothing sent', async () => {
    const res = await post(fields({ fax_number: '555' }));
    expect(res.headers.get('location')).to.equal(`/w/${widget.vanity_id}/sent?ecard=${ecardVanity}&mode=email`);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(0);
  });

  it('a widget that is not public → 404', async () => {
    await widget.update({ public_share_enabled: false });
    expect((await post(fields())).status).to.equal(404);
  });

  it('another site\'s form post → 403', async () => {
    expect((await post(fields(), widget.vanity_id, { Origin: 'https://evil.example' })).status).to.equal(403);
    expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(0);
  });
});
