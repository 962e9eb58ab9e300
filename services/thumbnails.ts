// The 480 px wide WebP thumbnail of an uploaded image, as galleries show it. Decoding is bounded
// (`limitInputPixels`), so an image bomb costs nothing; an image sharp cannot read simply has no thumbnail (the
// upload itself was judged by its bytes' signature, as before).
import sharp from 'sharp';

export const THUMB_WIDTH = 480;
/** Images with more pixels than this (e.g. 8,000 × 5,000) are not decoded for a thumbnail. */
export const THUMB_MAX_INPUT_PIXELS = 40_000_000;

/** The thumbnail's WebP bytes, or null when the image cannot be read within the bounds. Smaller images keep their width. */
export async function makeThumbnail(bytes: Uint8Array): Promise<Buffer | null> {
  try {
    return await sharp(bytes, { limitInputPixels: THUMB_MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch {
    return null;
  }
}
