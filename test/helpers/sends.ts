// Real sends through the API, for tests whose subject needs send history (usage checks, snapshots).
import { expect } from 'chai';
import { call } from './api.ts';

let counter = 0;

/** Sends the eCard as a share link (no email; the accept publishes it before answering); returns its ids. */
export async function shareCard(url: string, key: string, ecardId: number, extra: Record<string, unknown> = {}): Promise<{ sendId: string; statVanityId: string; shareUrl: string }> {
  const body = { ecardId, senderEmail: 'sam@example.com', senderName: 'Sam', recipientName: `Reader ${++counter}`, type: 'ecard_copy_link', ...extra };
  const res = await call(url, 'POST', '/v2/api/pub/ecard-actions/send-ecard', { key, body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body as { sendId: string; statVanityId: string; shareUrl: string };
}
