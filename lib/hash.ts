// SHA-256 as lower-case hex: how API keys and confirmation tokens are stored (never the secret itself).
// node:crypto's synchronous hash rather than crypto.subtle.digest: every API request hashes its key, and the web
// API's promise and buffer copies cost about a tenth of an authenticated read (bench/read.ts profile).
import { createHash } from 'node:crypto';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
