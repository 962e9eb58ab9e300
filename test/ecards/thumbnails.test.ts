import { crc32, deflateSync } from 'node:zlib';
import { expect } from 'chai';
import sharp from 'sharp';
import { apiClient, expectSuccess, newAccount, type TestAccount } from '../helpers/api.ts';
import { insertEcard, insertWidget } from '../helpers/catalog.ts';
import { testStack, type TestStack } from '../helpers/stack.ts';
import { ownMediaFile } from '../../services/media.ts';
import { storedMediaBytes } from '../../services/limits.ts';
import { backfillThumbnails } from '../../services/thumbnail-backfill.ts';
import { THUMB_MAX_INPUT_PIXELS } from '../../services/thumbnails.ts';

type EcardBody = Record<string, unknown> & { id: number; self_hosted_url: string | null; thumb_image: string | null };

/** A real picture (a gradient, so it is no trivial image) as PNG bytes. */
async function picture(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) raw.set([i % 256, (i >> 8) % 256, 128], i * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** A valid 1-bit grayscale PNG of the given size (small bytes, many pixels): an image bomb for a decoder. */
function hugePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

// Uploads get a 480 px wide WebP thumbnail (sharp, bounded decoding), outside the media quota; eCards whose artwork
// is one of the account's uploads answer its URL as thumb_image; older uploads get theirs from a background pass.
describe('eCards: thumbnails of uploaded artwork', function () {
  this.timeout(60_000);
  let stack: TestStack;
  let account: TestAccount;
  let widgetId: number;
  before(async () => {
    stack = await testStack();
  });
  beforeEach(async () => {
    account = await newAccount(stack.models);
    widgetId = (await insertWidget(stack.models, account.accountId)).id;
  });
  const { api } = apiClient(() => stack, () => account.liveKey);
  const save = async (myEcard: Record<string, unknown>, ecardimg?: Buffer) =>
    expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: widgetId, name: 'Card', ...myEcard }, ...(ecardimg ? { ecardimg: ecardimg.toString('base64') } : {}) })) as EcardBody;
  const upload = async (bytes: Buffer) => (expectSuccess(await api('POST', '/ecard/uploadMediaImage', { imageBase: bytes.toString('base64') })) as { url: string }).url;

  /** The thumbnail as a browser gets it from /media: a WebP at most 480 px wide. */
  async function served(url: string) {
    expect(url).to.match(new RegExp(`^${stack.config.publicBaseUrl}/media/[\\w-]+\\.webp$`));
    const res = await fetch(`${stack.url}${new URL(url).pathname}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/webp');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('ascii')).to.equal('RIFF');
    expect(bytes.subarray(8, 12).toString('ascii')).to.equal('WEBP');
    return sharp(bytes).metadata();
  }

  it('an ecardimg upload gets a 480 px wide WebP thumbnail, served by /media; the original stays as it was', async () => {
    const original = await picture(1200, 800);
    const card = await save({}, original);
    expect(card.thumb_image).not.to.equal(card.self_hosted_url);
    const meta = await served(card.thumb_image!);
    expect(meta).to.deep.include({ format: 'webp', width: 480, height: 320 });
    const res = await fetch(`${stack.url}${new URL(card.self_hosted_url!).pathname}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(original)).to.equal(true);
    // findOne and get-ecards answer the same thumbnail.
    expect(expectSuccess(await api('GET', `/ecard/findOne/id/${card.id}`))).to.deep.include({ thumb_image: card.thumb_image });
    const row = (await stack.models.Ecard.findByPk(card.id))!;
    expect(row.thumb_file).to.match(/^[\w-]+\.webp$/);
  });

  it('the thumbnail does not count in the media quota: only the original is a stored file of the account', async () => {
    const original = await picture(900, 600);
    await save({}, original);
    expect(await stack.models.MediaFile.count({ where: { account_id: account.accountId } })).to.equal(1);
    expect(await storedMediaBytes(stack, account.accountId)).to.equal(original.length);
  });

  it('a smaller image keeps its width', async () => {
    const card = await save({}, await picture(200, 100));
    expect(await served(card.thumb_image!)).to.deep.include({ width: 200, height: 100 });
  });

  it('uploadMediaImage makes the thumbnail; an eCard saved with that URL gets it; an external URL is its own thumb_image', async () => {
    const url = await upload(await picture(640, 640));
    const file = await stack.models.MediaFile.findOne({ where: { file_name: ownMediaFile(stack.config.publicBaseUrl, url)! } });
    expect(file!.thumb_file_name).to.match(/^[\w-]+\.webp$/);
    const card = await save({ self_hosted_url: url });
    expect(card.thumb_image).to.equal(`${stack.config.publicBaseUrl}/media/${file!.thumb_file_name!}`);
    expect(await served(card.thumb_image!)).to.deep.include({ width: 480, height: 480 });
    // Changing the artwork to an external image: never fetched, shown as it is.
    const external = expectSuccess(await api('POST', '/ecard/save', { myEcard: { id: card.id, self_hosted_url: 'https://cdn.example.com/art.jpg' } })) as EcardBody;
    expect(external.thumb_image).to.equal('https://cdn.example.com/art.jpg');
    expect((await stack.models.Ecard.findByPk(card.id))!.thumb_file).to.equal(null);
    // Another account's upload is not this account's file: its URL shows as it is.
    const other = await newAccount(stack.models);
    const otherWidget = await insertWidget(stack.models, other.accountId);
    const theirs = expectSuccess(await api('POST', '/ecard/save', { myEcard: { widgetid: otherWidget.id, name: 'Theirs', self_hosted_url: url } }, other.liveKey)) as EcardBody;
    expect(theirs.thumb_image).to.equal(url);
  });

  it(`an image over ${THUMB_MAX_INPUT_PIXELS / 1e6} M pixels is stored as before, without a thumbnail (limitInputPixels)`, async () => {
    const bomb = hugePng(8000, 6000);
    expect(bomb.length).to.be.below(1024 * 1024);
    const card = await save({}, bomb);
    expect(card.thumb_image).to.equal(card.self_hosted_url);
    const file = await stack.models.MediaFile.findOne({ where: { file_name: ownMediaFile(stack.config.publicBaseUrl, card.self_hosted_url)! } });
    expect(file!.thumb_file_name).to.equal('');
    // The same picture within the bound does get one (the refusal is the pixel limit, not the PNG).
    const fine = await save({}, hugePng(4000, 3000));
    expect(await served(fine.thumb_image!)).to.deep.include({ width: 480, height: 360 });
  });

  it('a corrupt image behind a PNG signature is accepted as before, without a thumbnail (never a 5xx)', async () => {
    const corrupt = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a picture')]);
    const card = await save({}, corrupt);
    expect(card.thumb_image).to.equal(card.self_hosted_url);
    const url = await upload(corrupt);
    expect(url).to.match(/\.png$/);
  });

  it('copies have their own thumbnail (eCard copy and widget copy)', async () => {
    const card = await save({}, await picture(1000, 500));
    const copy = expectSuccess(await api('POST', '/ecard/copy', { ecardid: card.id })) as EcardBody;
    expect(copy.thumb_image).not.to.equal(card.thumb_image);
    expect(await served(copy.thumb_image!)).to.deep.include({ width: 480, height: 240 });
    const widgetCopy = expectSuccess(await api('POST', '/widget/copyWidgetWithEcards', { widgetid: widgetId })) as { id: number };
    const copied = expectSuccess(await api('GET', `/ecard/search?widgetID=${widgetCopy.id}`)) as EcardBody[];
    expect(copied).to.have.length(2);
    for (const e of copied) {
      expect(e.thumb_image).not.to.be.oneOf([card.thumb_image, copy.thumb_image]);
      expect(await served(e.thumb_image!)).to.deep.include({ width: 480 });
    }
  });

  it('the background pass gives older uploads their thumbnail and their eCards thumb_file, once', async () => {
    // An upload from before thumbnails: a file in the store, its row without a thumbnail, an eCard showing it.
    const fileName = `${'old'.padEnd(20, 'x')}${account.accountId}.png`;
    await stack.services.mediaStore.put(fileName, await picture(960, 480));
    await stack.models.MediaFile.create({ account_id: account.accountId, file_name: fileName, content_type: 'image/png', size_bytes: 1, created_at: new Date() });
    const url = `${stack.config.publicBaseUrl}/media/${fileName}`;
    const ecard = await insertEcard(stack.models, account.accountId, widgetId, { self_hosted_url: url });
    expect((await stack.models.Ecard.findByPk(ecard.id))!.thumb_file).to.equal(null);
    expect((expectSuccess(await api('GET', `/ecard/findOne/id/${ecard.id}`)) as EcardBody).thumb_image).to.equal(url);

    while (await backfillThumbnails(stack.services));
    const file = (await stack.models.MediaFile.findOne({ where: { file_name: fileName } }))!;
    expect(file.thumb_file_name).to.match(/^[\w-]+\.webp$/);
    const row = (await stack.models.Ecard.findByPk(ecard.id))!;
    expect(row.thumb_file).to.equal(file.thumb_file_name);
    const bytes = (await stack.services.mediaStore.get(row.thumb_file!))!;
    expect(await sharp(bytes).metadata()).to.deep.include({ format: 'webp', width: 480, height: 240 });
    expect(await served((expectSuccess(await api('GET', `/ecard/findOne/id/${ecard.id}`)) as EcardBody).thumb_image!)).to.deep.include({ width: 480 });

    // Idempotent: a second run changes nothing.
    while (await backfillThumbnails(stack.services));
    expect((await stack.models.MediaFile.findOne({ where: { file_name: fileName } }))!.thumb_file_name).to.equal(file.thumb_file_name);
    expect((await stack.models.Ecard.findByPk(ecard.id))!.thumb_file).to.equal(file.thumb_file_name);
  });

  it('the background pass marks a file that is gone or unreadable, and does not try it again', async () => {
    const gone = await stack.models.MediaFile.create({ account_id: account.accountId, file_name: `${'gone'.padEnd(20, 'y')}${account.accountId}.png`, content_type: 'image/png', size_bytes: 1, created_at: new Date() });
    const corruptName = `${'bad'.padEnd(20, 'z')}${account.accountId}.png`;
    await stack.services.mediaStore.put(corruptName, Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    const corrupt = await stack.models.MediaFile.create({ account_id: account.accountId, file_name: corruptName, content_type: 'image/png', size_bytes: 7, created_at: new Date() });
    while (await backfillThumbnails(stack.services));
    expect((await gone.reload()).thumb_file_name).to.equal('');
    expect((await corrupt.reload()).thumb_file_name).to.equal('');
  });
});
