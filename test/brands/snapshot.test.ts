import { expect } from 'chai';
import { accountWithWidget } from '../helpers/account-with-widget.ts';
import { apiClient, type TestAccount } from '../helpers/api.ts';
import { shareCard } from '../helpers/sends.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { EcardDesign, loadSnapshot } from '../../services/sends/accept/snapshot.ts';

type Json = Record<string, unknown>;

describe('brands: the send snapshot', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let ecardId: number;
  let brandId: number;
  before(async () => {
    stack = await testStack();
    const made = await accountWithWidget(stack);
    account = made.account;
    ecardId = made.ecard.id;
  });

  const { api, ok } = apiClient(() => stack, () => account.liveKey);
  const snapshotOf = async (sendId: string) => {
    const send = await stack.models.Send.findOne({ where: { send_id: sendId }, rejectOnEmpty: true });
    return (await loadSnapshot(stack, send.id))!;
  };

  it('an eCard with no brand keeps the default brand as it was at accept', async () => {
    const { sendId } = await shareCard(stack.url, account.liveKey, ecardId);
    const brand = (await snapshotOf(sendId)).brand!;
    const defaultBrand = ((await ok('GET', '/brand/list')) as unknown as Json[]).find((b) => b.is_default)!;
    expect(brand).to.deep.include({ id: defaultBrand.id, name: defaultBrand.name, font: 'system' });
  });

  it("keeps the eCard's brand as it was, after the brand is edited", async () => {
    brandId = (await ok('POST', '/brand/save', { brand: { name: 'Before', primary_color: '#111111', social: { twitter: 'https://twitter.com/before' } } })).id as number;
    await ok('POST', '/ecard/save', { myEcard: { id: ecardId, ecardbrandid: brandId } });
    const { sendId } = await shareCard(stack.url, account.liveKey, ecardId);
    await ok('POST', '/brand/save', { brand: { id: brandId, name: 'After', primary_color: '#222222', social: {} } });
    const brand = (await snapshotOf(sendId)).brand!;
    expect(brand).to.deep.include({ id: brandId, name: 'Before', primary_color: '#111111' });
    expect(brand.social.twitter).to.equal('https://twitter.com/before');
  });

  it('overrideProps.brand amends the brand of that send only', async () => {
    const { sendId } = await shareCard(stack.url, account.liveKey, ecardId, {
      overrideProps: { brand: { primary_color: '#abc', footer_text: 'Just this once', social: { youtube: 'https://youtube.com/@once' } } },
    });
    const brand = (await snapshotOf(sendId)).brand!;
    expect(brand).to.deep.include({ id: brandId, name: 'After', primary_color: '#abc', footer_text: 'Just this once' });
    expect(brand.social).to.deep.equal({ twitter: null, facebook: null, instagram: null, linkedin: null, youtube: 'https://youtube.com/@once' });
    expect((await ok('GET', `/brand/findOne/id/${brandId}`)).primary_color).to.equal('#222222');
  });

  for (const [what, brand] of [['a bad colour', { accent_color: 'blue' }], ['an http URL', { logo_url: 'http://cdn.example.com/x.png' }], ['an unknown font', { font: 'papyrus' }]] as const) {
    it(`overrideProps.brand with ${what} → 400, no send`, async () => {
      const before = await stack.models.Send.count({ where: { account_id: account.accountId } });
      const res = await api('POST', '/pub/ecard-actions/send-ecard', {
        ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: 'Rita', type: 'ecard_copy_link', overrideProps: { brand },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body).to.include({ success: false, code: 'invalid_parameter' });
      expect(await stack.models.Send.count({ where: { account_id: account.accountId } })).to.equal(before);
    });
  }

  it('a snapshot made before brands (no brand field) still parses, without a brand', () => {
    const old = {
      ecard_id: 1, widget_id: 1, name: 'Old', emailSubject: 'S', header: 'H', details: '<p>D</p>', self_hosted_url: null, ecardLink: null,
      url_redirect_after_send: null, envelope_bg_image_url: null, envelope_audio_url: null, envelope_video_url: null, envelope_color_settings: null,
      envelope_auto_open: false, envelope_confetti: false,
    };
    const parsed = EcardDesign.parse(old);
    expect(parsed.brand).to.equal(undefined);
  });
});
