// VERP return paths (issue 34, item 3): with BOUNCE_DOMAIN set, each recipient's email leaves with the envelope
// sender bounces+<token>@BOUNCE_DOMAIN, so a bounce names its recipient by the address it comes back to, whatever
// the report says. The token is made with the recipient's row (single and bulk alike) and never reused.
import { randomBytes } from 'node:crypto';
import type { Config } from '../../../lib/config.ts';

const LOCAL_PREFIX = 'bounces+';
const TOKEN = /^[0-9a-f]{32}$/;

/** A new recipient's token (128 random bits, lower-case hex), or null when no bounce domain is configured. */
export const newBounceToken = (bounces: Config['bounces']): string | null => (bounces.domain ? randomBytes(16).toString('hex') : null);

/** The envelope sender of a recipient's email; undefined (MAIL_FROM's address) without a domain or a token. */
export function returnPathOf(bounces: Config['bounces'], token: string | null | undefined): string | undefined {
  return bounces.domain && token ? `${LOCAL_PREFIX}${token}@${bounces.domain}` : undefined;
}

/** The token an address to the listener names, or null when it is not one of ours (another domain, another shape). */
export function tokenOfReturnPath(bounces: Config['bounces'], address: string): string | null {
  const lower = address.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (!bounces.domain || at < 0 || lower.slice(at + 1) !== bounces.domain) return null;
  const local = lower.slice(0, at);
  if (!local.startsWith(LOCAL_PREFIX)) return null;
  const token = local.slice(LOCAL_PREFIX.length);
  return TOKEN.test(token) ? token : null;
}
