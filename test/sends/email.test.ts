// The branded email as recipients get it, read at the test SMTP server: a single send with a gift card, a campaign
// and an automation firing, each in its eCard's brand, linking to that recipient's own page, with the text part
// saying the same; bulk mail (campaigns, automations) alone carries the unsubscribe link.
import { expect } from 'chai';
import { contrastRatio } from '../../lib/colors.ts';
import type { ReceivedMail } from '../helpers/smtp.ts';
import { apiClient, newAccount, type TestAccount } from '../helpers/api.ts';
import { createFiringSchedule, firings, firingZone, insertAutomation, triggerTimes } from '../helpers/automations.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { eventually } from '../helpers/eventually.ts';
import { claimLinkIn, seedCodes } from '../helpers/rewards.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { testClient } from '../helpers/temporal.ts';
import { localDateOf } from '../../services/automations/local-date.ts';
import { paletteOf } from '../../services/sends/email/email-palette.ts';
import { recipientUrl } from '../../services/sends/card-page/pages.ts';


// SMTP carries CRLF line ends.
const lines = (text: string) => text.replace(/\r\n/g, '\n');

let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@mail.example.com`;

const BRAND = {
  name: 'Maple Goods',
  logo_url: 'https://cdn.example.com/maple-logo.png',
  website: 'https://maple.example',
  address: '12 Orchard Lane\nSpringfield',
  primary_color: '#0a7',
  accent_color: '#d97706',
  font: 'humanist',
  footer_text: 'Cards from the Maple team.',
  social: { instagram: 'https://instagram.com/maple', linkedin: 'https://linkedin.com/company/maple' },
};

describe('the branded email: single sends, campaigns and automations', function () {
  this.timeout(120_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
    account = await newAccount(stack.models, 'pro');
    const brandId = (await ok('POST', '/brand/save', { brand: BRAND })).id as number;
    const ecard = await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id, { self_hosted_url: 'https://cdn.example.com/flowers.png' });
    await ecard.update({ header: 'Well done', details: '<p>Dear {{recipient_name}}, thank you!</p>' });
    await ok('POST', '/ecard/save', { myEcard: { id: ecard.id, ecardbrandid: brandId } });
    ecardId = ecard.id;
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);
  /** The link to this recipient's own page, as the send's rows hold it. */
  const ownLink = async (email: string) => {
    const recipient = (await stack.models.SendRecipient.findOne({ where: { recipient_email: email } }))!;
    const send = (await stack.models.Send.findByPk(recipient.send_id))!;
    expect(recipient.page_id, 'the recipient has a page of their own').to.be.a('string');
    return recipientUrl(stack.config.publicBaseUrl, send, recipient);
  };
  const mailTo = (email: string) => eventually(async () => smtp.to(email), (mails) => mails.length > 0, 60_000).then((mails) => mails[0]!);

  /** What every email of the brand shows, in the HTML and in the text part. */
  function expectBranded(mail: ReceivedMail, link: string, name: string) {
    const palette = paletteOf({ id: null, ...BRAND, background_color: null, text_color: null, social: { twitter: null, facebook: null, youtube: null, ...BRAND.social } });
    expect(palette.primary).to.equal('#00aa77');
    expect(mail.html).to.include(`src="${BRAND.logo_url}"`).and.include('alt="Maple Goods"');
    expect(mail.html, 'the brand colour on the button').to.match(new RegExp(`background:${palette.primary}`));
    expect(mail.html).to.include('Seravek');
    expect(mail.html).to.include('Sam Sender sent you an eCard').and.include('Well done').and.include(`Dear ${name}, thank you!`);
    expect(mail.html, 'the cover links to the recipient').to.match(new RegExp(`<a\\s+href="${link}"[^>]*>\\s*<img[^>]*src="https://cdn.example.com/flowers.png"`));
    expect(mail.html, 'the button links to the recipient').to.match(new RegExp(`href="${link}"[^>]*>\\s*Open your eCard`));
    expect(mail.html).to.include('12 Orchard Lane<br>Springfield').and.include('Cards from the Maple team.');
    expect(mail.html).to.include('href="https://instagram.com/maple"').and.include('href="https://linkedin.com/company/maple"').and.include('href="https://maple.example"');
    for (const part of ['Sam Sender sent you an eCard', 'Well done', `Dear ${name}, thank you!`, `Open your eCard: ${link}`, 'Maple Goods', '12 Orchard Lane', 'Springfield', 'Cards from the Maple team.', 'Instagram: https://instagram.com/maple']) {
      expect(mail.text, part).to.include(part);
    }
  }

  it('a single send with a gift card: the brand, the recipient\'s own link, the gift block, no unsubscribe link', async () => {
    await seedCodes(stack.models, stack.services.dataKeys!, account.accountId, 'Acme', 2500, 1);
    const to = address('rita');
    const res = await api('POST', '/pub/ecard-actions/send-ecard', {
      ecardId, senderEmail: 'sam@example.com', senderName: 'Sam Sender', recipientName: 'Rita Receiver', recipientEmail: to,
      personalMessage: '<p>Enjoy your day off</p>', giftCard: { product_id: 'manual:Acme:25', amount: 25 },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const mail = await mailTo(to);
    const link = await ownLink(to);
    expectBranded(mail, link, 'Rita Receiver');
    expect(mail.html).to.include('Personal message').and.include('<p>Enjoy your day off</p>');
    expect(lines(mail.text)).to.include('Personal message:\nEnjoy your day off');
    const claim = claimLinkIn(mail.text)!;
    expect(claim, mail.text).to.be.a('string');
    expect(mail.html).to.include('You received a 25 USD Acme gift card.').and.match(new RegExp(`href="${claim}"[^>]*>\\s*Claim your gift card`));
    expect(lines(mail.text)).to.include(`You received a 25 USD Acme gift card.\nClaim your gift card: ${claim}`);
    expect(mail.headers['list-unsubscribe']).to.equal(undefined);
    expect(mail.html).not.to.include('/u/').and.not.include('Unsubscribe');
    expect(mail.text).not.to.include('/u/').and.not.include('Unsubscribe');
  });

  it('a campaign: each recipient\'s own link, the brand, the unsubscribe link of its List-Unsubscribe header, no gift block', async () => {
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Thanks', from_name: 'Sam Sender', from_email: 'sam@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
    const [ann, bob] = [address('ann'), address('bob')];
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [{ email: ann, first_name: 'Ann', last_name: 'Able' }, { email: bob, first_name: 'Bob', last_name: 'Baker' }] });
    await ok('POST', '/campaign/send', { campaignid: id });
    const links = new Set<string>();
    for (const [to, name] of [[ann, 'Ann Able'], [bob, 'Bob Baker']] as const) {
      const mail = await mailTo(to);
      const link = await ownLink(to);
      links.add(link);
      expectBranded(mail, link, name);
      const unsubscribe = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
      expect(unsubscribe, 'List-Unsubscribe').to.match(/\/u\/[0-9A-Za-z]+$/);
      expect(mail.html).to.match(new RegExp(`href="${unsubscribe}"[^>]*>Unsubscribe</a>`));
      expect(mail.text).to.include(`Unsubscribe: ${unsubscribe}`);
      expect(mail.html).not.to.include('Claim your gift card');
      // The link works: it is the unsubscribe page.
      expect((await fetch(unsubscribe!)).status).to.equal(200);
    }
    expect(links.size, 'each recipient has a link of their own').to.equal(2);
  });

  it('an automation firing: the brand, the member\'s own link and the unsubscribe link', async () => {
    const zone = firingZone();
    const to = address('member');
    await stack.models.TeamMember.create({
      account_id: account.accountId, email: to, employee_id: null, first_name: 'Mia', last_name: 'Member', job_position: null,
      date_of_birth: `1992-${localDateOf(new Date(), zone).slice(5)}`, hire_date: null, profile_image_url: null, manager_id: null, pending_manager_email: null,
    });
    const row = await insertAutomation(stack.models, account.accountId, zone, ecardId, { from_name: 'Sam Sender' });
    const handle = await createFiringSchedule(stack.services, row);
    const [result] = await firings(await testClient(), handle, 1, triggerTimes(handle, 1));
    expect(result!.counts).to.deep.include({ sent: 1 });
    const mail = await mailTo(to);
    expectBranded(mail, await ownLink(to), 'Mia Member');
    const unsubscribe = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'] ?? '')?.[1];
    expect(unsubscribe).to.match(/\/u\/[0-9A-Za-z]+$/);
    expect(mail.html).to.include(`href="${unsubscribe}"`);
    expect(mail.text).to.include(`Unsubscribe: ${unsubscribe}`);
    // The automation's message is the personal note.
    expect(mail.html).to.include('Many happy returns!');
  });

  it('readable on a brand whose text colour is its background colour', async () => {
    const brandId = (await ok('POST', '/brand/save', { brand: { name: 'Snow', text_color: '#ffffff', background_color: '#ffffff' } })).id as number;
    const ecard = await insertEcard(stack.models, account.accountId, (await insertWidget(stack.models, account.accountId)).id);
    await ok('POST', '/ecard/save', { myEcard: { id: ecard.id, ecardbrandid: brandId } });
    const to = address('snow');
    await api('POST', '/pub/ecard-actions/send-ecard', { ecardId: ecard.id, senderEmail: 'sam@example.com', senderName: 'Sam Sender', recipientName: 'Sue', recipientEmail: to });
    const mail = await mailTo(to);
    const colours = [...mail.html.matchAll(/<div\s+style="font-family:[^"]*;color:(#[0-9a-f]{6});"/g)].map((m) => m[1]!);
    expect(colours).to.have.length.greaterThan(0);
    for (const colour of colours) expect(contrastRatio(colour, '#ffffff'), colour).to.be.at.least(4.5);
  });
});
