// Images: decoding base64 uploads, sniffing the real type from the bytes, storing under generated names.
import { imageTooLarge, invalidImage, unsupportedImageType } from '../lib/errors.ts';
import { accountTransaction } from './account-lock.ts';
import type { ServiceContext } from './context.ts';
import { assertMediaRoom } from './limits.ts';
import type { MediaFile } from '../models/MediaFile.ts';
import { makeThumbnail } from './thumbnails.ts';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const IMAGE_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
} as const;
export type ImageExtension = keyof typeof IMAGE_TYPES;

/** The image type the bytes really are (png, jpeg, gif, webp), whatever the upload claimed. */
export function sniffImage(bytes: Uint8Array): ImageExtension | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'webp';
  return null;
}

const DATA_URI = /^data:([\w/+.-]+)?(;[\w=.-]+)*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Raw base64 or a `data:` URI → bytes; 400 for bad base64, 413 over 5 MB decoded. */
export function decodeImage(input: string, field: string): Buffer {
  const body = input.replace(DATA_URI, '').replace(/\s+/g, '');
  if (body === '' || body.length % 4 === 1 || !BASE64.test(body)) {
    throw invalidImage(`${field} is not valid base64 (raw or a data: URI)`);
  }
  if ((body.length * 3) / 4 > MAX_IMAGE_BYTES + 3) {
    throw imageTooLarge(`${field} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  }
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge(`${field} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  return bytes;
}

export const MEDIA_PATH = '/media';

export function mediaUrl(publicBaseUrl: string, fileName: string): string {
  return `${publicBaseUrl}${MEDIA_PATH}/${fileName}`;
}

function newFileName(ext: ImageExtension): string {
  return `${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')}.${ext}`;
}

/**
 * Stores the thumbnail of a stored image (given, as a copy's, or made from the bytes) and names it on the image's
 * row; outside the quota (no row of its own). An image without one keeps "" (none can be made); a store that fails
 * leaves null, for the background pass to try again. Never throws: a thumbnail is never worth a failed upload.
 */
export async function attachThumbnail(ctx: ServiceContext, row: MediaFile, bytes: Uint8Array, given?: Uint8Array | null): Promise<string | null> {
  try {
    const thumb = given ?? (await makeThumbnail(bytes));
    if (!thumb) {
      await ctx.models.MediaFile.update({ thumb_file_name: '' }, { where: { id: row.id, thumb_file_name: null } });
      row.thumb_file_name = '';
      return null;
    }
    const fileName = newFileName('webp');
    await ctx.mediaStore.put(fileName, thumb);
    // Conditional, so two background passes making the same thumbnail name one of them (the other file is unused).
    const [named] = await ctx.models.MediaFile.update({ thumb_file_name: fileName }, { where: { id: row.id, thumb_file_name: null } });
    if (named === 0) return (await row.reload()).thumb_file_name || null;
    row.thumb_file_name = fileName;
    return fileName;
  } catch (err) {
    ctx.logger.warn({ err, file: row.file_name }, 'no thumbnail stored for an image; the background pass tries again');
    return null;
  }
}

/** Stores image bytes for an account within its plan's media quota (422 limit_exceeded past it), with a thumbnail; returns the hosted URL. */
export async function storeImage(ctx: ServiceContext, accountId: number, bytes: Uint8Array, field: string, thumbnail?: Uint8Array | null): Promise<string> {
  const ext = sniffImage(bytes);
  if (!ext) throw unsupportedImageType(`${field} must be a PNG, JPEG, GIF or WebP image`);
  const fileName = newFileName(ext);
  // The quota check and the row are one step under the account's lock, so parallel uploads cannot all fit; the
  // file is written after, and its row taken back if the write fails.
  const row = await accountTransaction(ctx, accountId, async (transaction, account) => {
    await assertMediaRoom(ctx, account, bytes.length, transaction);
    return ctx.models.MediaFile.create({ account_id: accountId, file_name: fileName, content_type: IMAGE_TYPES[ext], size_bytes: bytes.length }, { transaction });
  });
  try {
    await ctx.mediaStore.put(fileName, bytes);
  } catch (err) {
    await row.destroy();
    throw err;
  }
  await attachThumbnail(ctx, row, bytes, thumbnail);
  return mediaUrl(ctx.config.publicBaseUrl, fileName);
}

/** Decodes and stores a base64 upload. */
export async function uploadImage(ctx: ServiceContext, accountId: number, base64: string, field: string): Promise<string> {
  return storeImage(ctx, accountId, decodeImage(base64, field), field);
}

/** The file name of one of our media URLs, or null for any other URL. */
export function ownMediaFile(publicBaseUrl: string, url: string | null): string | null {
  const prefix = `${publicBaseUrl}${MEDIA_PATH}/`;
  return url?.startsWith(prefix) ? url.slice(prefix.length) : null;
}

/** Copies share nothing: an image of ours is duplicated under a new name; other URLs are kept as they are. */
export async function duplicateImage(ctx: ServiceContext, accountId: number, url: string | null): Promise<string | null> {
  const fileName = ownMediaFile(ctx.config.publicBaseUrl, url);
  if (!fileName) return url;
  const bytes = await ctx.mediaStore.get(fileName);
  if (!bytes) return url;
  // The copy's thumbnail is a copy of the source's, when it has one (no second decode).
  const source = await ctx.models.MediaFile.findOne({ where: { file_name: fileName, account_id: accountId }, attributes: ['thumb_file_name'] });
  const thumbnail = source?.thumb_file_name ? await ctx.mediaStore.get(source.thumb_file_name) : null;
  return storeImage(ctx, accountId, bytes, 'image', thumbnail);
}

/**
 * The thumbnail file of each URL that is one of this account's uploads with a thumbnail, else null (an external
 * image is never fetched: galleries show it as it is).
 */
export async function thumbFilesOf(ctx: ServiceContext, accountId: number, urls: ReadonlyArray<string | null>): Promise<Array<string | null>> {
  const names = urls.map((url) => ownMediaFile(ctx.config.publicBaseUrl, url));
  const own = [...new Set(names.filter((name): name is string => name !== null))];
  if (own.length === 0) return urls.map(() => null);
  const files = await ctx.models.MediaFile.findAll({ where: { account_id: accountId, file_name: own }, attributes: ['file_name', 'thumb_file_name'] });
  const thumbs = new Map(files.map((f) => [f.file_name, f.thumb_file_name || null]));
  return names.map((name) => (name === null ? null : (thumbs.get(name) ?? null)));
}

/**
 * Each URL duplicated as duplicateImage does, one after the other (a copy of hundreds of images never holds them all
 * in memory), after checking that all of them fit the media quota, so a copy refused half-way leaves few orphans.
 */
export async function duplicateImages(ctx: ServiceContext, accountId: number, urls: ReadonlyArray<string | null>): Promise<Array<string | null>> {
  const own = urls.map((url) => ownMediaFile(ctx.config.publicBaseUrl, url)).filter((name): name is string => name !== null);
  if (own.length) {
    const files = await ctx.models.MediaFile.findAll({ where: { file_name: [...new Set(own)] }, attributes: ['file_name', 'size_bytes'] });
    const sizes = new Map(files.map((f) => [f.file_name, f.size_bytes]));
    const account = await ctx.models.Account.findByPk(accountId);
    if (account) await assertMediaRoom(ctx, account, own.reduce((sum, name) => sum + (sizes.get(name) ?? 0), 0));
  }
  const copies: Array<string | null> = [];
  for (const url of urls) copies.push(await duplicateImage(ctx, accountId, url));
  return copies;
}
