// A gift's claim link: `{PUBLIC_BASE_URL}/g/<token>`, 256 random bits made at the SMTP hand-off and stored only as
// their SHA-256 (the link is the bearer secret; the database alone cannot rebuild it).
import { createHash, randomBytes } from 'node:crypto';

export interface ClaimToken {
  token: string;
  hash: string;
  /** The link's last 4 characters, for `claim_url_masked`. */
  last4: string;
}

export const claimTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function newClaimToken(): ClaimToken {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: claimTokenHash(token), last4: token.slice(-4) };
}

export const claimUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/g/${token}`;
