// The picture a gallery shows for an eCard: its 480 px WebP thumbnail when its artwork was uploaded here, else
// the artwork's URL as it is (an external `self_hosted_url` is never fetched).
import type { Ecard } from '../../../models/Ecard.ts';
import { mediaUrl } from '../../media.ts';

export function thumbImageOf(publicBaseUrl: string, ecard: Pick<Ecard, 'thumb_file' | 'self_hosted_url'>): string | null {
  return ecard.thumb_file ? mediaUrl(publicBaseUrl, ecard.thumb_file) : ecard.self_hosted_url;
}
