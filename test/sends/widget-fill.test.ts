import { expect } from 'chai';
import { apiClient, call, newAccount, type TestAccount } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { shareCard } from '../helpers/sends.ts';
import { testSmtpServer, type SmtpTestServer } from '../helpers/smtp.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { loadSnapshot } from '../../services/sends/accept/snapshot.ts';

type Json = Record<string, unknown>;
let counter = 0;
const address = (name: string) => `${name}-${process.pid}-${++counter}@fill.example.com`;

// What a send keeps of its widget: the widget's own details fill the brand's gaps, its merge-tag fallbacks fill
// empty tags; and the eCard's card page fields go into the snapshot.
describe("sends: the widget's details and merge-tag fallbacks, and the card page fields, in what is sent", function () {
  this.timeout(90_000);
  let stack: TestStack;
  let smtp: SmtpTestServer;
  let account: TestAccount;
  let widgetId: number;
  let ecardId: number;
  before(async () => {
    stack = await testStack();
    smtp = await testSmtpServer();
  });
  const { ok } = apiClient(() => stack, () => account.liveKey);
  const snapshotOf = async (sendId: string) => {
    const send = await stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
    return (await loadSnapshot(stack, send.id))!;
  };

  const WIDGET = {
    logo: 'https://cdn.example.com/widget-logo.png',
    website: 'https://widget.example.com',
    address: '2 Widget Way',
    stwitter: 'https://twitter.com/widget',
    syoutube: 'https://youtube.com/@widget',
    merge_tag_defaults: { recipient_name: 'friend', team: 'the whole team', office: 'HQ' },
  };

  beforeEach(async () => {
    account = await newAccount(stack.models, 'pro');
    // The default brand sets its website and Twitter: those stay the brand's; the rest comes from the widget.
    const brands = (await ok('GET', '/brand/list')) as unknown as Json[];
    const defaultId = brands.find((b) => b.is_default)!.id as number;
    await ok('POST', '/brand/save', { brand: { id: defaultId, website: 'https://brand.example.com', social: { twitter: 'https://twitter.com/brand' } } });
    widgetId = (await ok('POST', '/widget/save', { widget: { name: 'Filled', wconfig: {}, ...WIDGET } })).id as number;
    ecardId = (await ok('POST', '/ecard/save', {
      myEcard: {
        widgetid: widgetId, name: 'Card', emailSubject: 'For {{recipient_name}}', header: 'From {{team}}', details: '<p>Dear {{recipient_name}}, love from {{team}} at {{office}}</p>',
        envelope_theme: 'night', envelope_audio_repeat: true, ecardLinkAltText: 'See it', thumbnail_alt_label: 'Stars', og_title: 'OG title', og_description: 'OG text', ecard_mode: 'classic',
      },
    })).id as number;
  });

  it("a share link's snapshot: the brand's empty logo, address and social links come from the widget; what the brand sets stays", async () => {
    const { sendId } = await shareCard(stack.url, account.liveKey, ecardId);
    const brand = (await snapshotOf(sendId)).brand!;
    expect(brand).to.deep.include({ logo_url: WIDGET.logo, website: 'https://brand.example.com', address: WIDGET.address });
    expect(brand.social).to.deep.equal({ twitter: 'https://twitter.com/brand', facebook: null, instagram: null, linkedin: null, youtube: WIDGET.syoutube });
  });

  it("the snapshot keeps the eCard's card page fields and the widget's fallbacks, as they were at accept", async () => {
    const { sendId } = await shareCard(stack.url, account.liveKey, ecardId);
    await ok('POST', '/ecard/save', { myEcard: { id: ecardId, envelope_theme: 'modern', og_title: 'Changed' } });
    await ok('POST', '/widget/save', { widget: { id: widgetId, merge_tag_defaults: {}, logo: null } });
    expect(await snapshotOf(sendId)).to.deep.include({
      envelope_theme: 'night', envelope_audio_repeat: true, ecardLinkAltText: 'See it', thumbnail_alt_label: 'Stars', og_title: 'OG title', og_description: 'OG text', ecard_mode: 'classic',
      merge_tag_defaults: WIDGET.merge_tag_defaults,
    });
  });

  it('overrideProps.brand still wins over the widget', async () => {
    const { sendId } = await shareCard(stack.url, account.liveKey, ecardId, { overrideProps: { brand: { logo_url: 'https://cdn.example.com/override.png', address: 'Override Rd' } } });
    expect((await snapshotOf(sendId)).brand).to.deep.include({ logo_url: 'https://cdn.example.com/override.png', address: 'Override Rd', website: 'https://brand.example.com' });
  });

  it('an email: empty and missing merge tags take the fallbacks; given ones stay', async () => {
    const to = address('rita');
    const res = await call(stack.url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', {
      key: account.liveKey,
      body: { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', recipientEmail: to, mergeTags: { team: '' } },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [mail] = await eventually(async () => smtp.to(to), (l) => l.length > 0, 15_000);
    expect(mail!.subject).to.equal('For Rita');
    expect(mail!.html).to.include('Dear Rita, love from the whole team at HQ');
    expect(mail!.text).to.include('Dear Rita, love from the whole team at HQ');
  });

  it('a preview renders as sent: empty tags take the fallbacks', async () => {
    const preview = await ok('POST', '/ecard/preview', { id: ecardId, mergeTags: { recipient_name: '', office: 'the lab' } });
    expect(preview).to.deep.include({ subject: 'For friend', header: 'From the whole team' });
    expect(preview.html).to.include('Dear friend, love from the whole team at the lab');
  });

  it("a campaign: a recipient without a name gets the fallback, and the copy's snapshot takes its source widget's details", async () => {
    const to = address('nameless');
    const id = (await ok('POST', '/campaign/save', { campaign: { campaign_name: 'Filled', from_name: 'HR', from_email: 'hr@example.com' } })).id as number;
    await ok('POST', '/campaign/saveCampaignEcards', { campaignid: id, ecardIds: [ecardId] });
    await ok('POST', '/campaign/saveRecipients', { campaignid: id, csvRecipients: [{ email: to, merge_fields: { office: 'the annex' } }] });
    await ok('POST', '/campaign/send', { campaignid: id });
    const [mail] = await eventually(async () => smtp.to(to), (l) => l.length > 0, 60_000);
    expect(mail!.subject).to.equal('For friend');
    expect(mail!.html).to.include('Dear friend, love from the whole team at the annex');
    const send = await stack.models.Send.findOne({ where: { origin: 'campaign', origin_id: id }, rejectOnEmpty: true });
    const design = (await loadSnapshot(stack, send.id))!;
    expect(design.brand).to.deep.include({ logo_url: WIDGET.logo, address: WIDGET.address, website: 'https://brand.example.com' });
    expect(design).to.deep.include({ envelope_theme: 'night', merge_tag_defaults: WIDGET.merge_tag_defaults });
  });
});
