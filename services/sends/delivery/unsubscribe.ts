// One-click unsubscribe (RFC 8058) for bulk emails: one unguessable link per address and account, made when the
// address first gets a bulk email; using it (POST) suppresses the address for the account, idempotently.
import { randomId } from '../../../lib/ids.ts';
import type { ServiceContext } from '../../context.ts';
import { addSuppression } from '../accept/rules.ts';

/** The link token of each address, made for those that lack one. */
export async function unsubscribeLinks(ctx: Pick<ServiceContext, 'models' | 'now'>, accountId: number, emails: string[]): Promise<Map<string, string>> {
  const { models } = ctx;
  const unique = [...new Set(emails.map((e) => e.toLowerCase()).filter(Boolean))];
  if (unique.length === 0) return new Map();
  const now = ctx.now();
  // 24 base62 characters: about 143 random bits.
  await models.UnsubscribeLink.bulkCreate(
    unique.map((email) => ({ token: randomId(24), account_id: accountId, email, created_at: now })),
    { ignoreDuplicates: true },
  );
  const rows = await models.UnsubscribeLink.findAll({ where: { account_id: accountId, email: unique } });
  return new Map(rows.map((r) => [r.email, r.token]));
}

export function unsubscribeHeaders(publicBaseUrl: string, token: string | undefined): Record<string, string> {
  if (!token) return {};
  return { 'List-Unsubscribe': `<${publicBaseUrl}/u/${token}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** The link a List-Unsubscribe header carries: the email's footer shows the same one. */
export const unsubscribeUrlOf = (headers: Record<string, string>): string | undefined => /^<(.+)>$/.exec(headers['List-Unsubscribe'] ?? '')?.[1];

/** The address behind a link, or null for an unknown token. */
export async function unsubscribeTarget(ctx: Pick<ServiceContext, 'models'>, token: string): Promise<{ accountId: number; email: string } | null> {
  const { models } = ctx;
  if (!/^[0-9A-Za-z]{16,32}$/.test(token)) return null;
  const link = await models.UnsubscribeLink.findByPk(token);
  return link ? { accountId: link.account_id, email: link.email } : null;
}

/** Suppresses the link's address for its account; false for an unknown token. Using it again changes nothing. */
export async function unsubscribe(ctx: Pick<ServiceContext, 'models' | 'now'>, token: string): Promise<boolean> {
  const target = await unsubscribeTarget(ctx, token);
  if (!target) return false;
  await addSuppression(ctx, target.accountId, 'email', target.email, 'unsubscribed');
  return true;
}

/** The List-Unsubscribe headers of the account's bulk emails (campaigns, automations), links made as needed. */
export function listUnsubscribeHeaders(ctx: ServiceContext, accountId: number) {
  return async (emails: string[]) => {
    const links = await unsubscribeLinks(ctx, accountId, emails);
    return (email: string) => unsubscribeHeaders(ctx.config.publicBaseUrl, links.get(email.toLowerCase()));
  };
}
