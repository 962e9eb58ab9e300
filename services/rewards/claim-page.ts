// The claim page's HTML (templates/gift-claim.hbs, every value escaped): what GET shows (brand, amount, the date to
// claim by, a button), what POST shows (the code and PIN), and the answers for a link that is unknown or expired.
// No recipient data is shown: the page is reachable by whoever holds the link.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { packageRoot } from '../../lib/paths.ts';
import type { GiftOrder } from '../../models/Gift.ts';
import type { ServiceContext } from '../context.ts';
import { claimState, findClaim, revealClaim } from './claim.ts';
import { amountText } from './money.ts';

const handlebars = Handlebars.create();
const template = handlebars.compile(readFileSync(join(packageRoot, 'templates', 'gift-claim.hbs'), 'utf8'), { strict: false });

export interface ClaimPage {
  status: 200 | 404 | 410;
  html: string;
}

/** `$25.00`, `€10.50`; a currency Intl does not know as `25 XYZ`. */
export function moneyText(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${amountText(cents)} ${currency}`;
  }
}

/** A date as `March 14, 2027` (UTC: expires_at is an instant, a code's expiry a calendar date). */
const dateText = (date: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

function orderValues(order: GiftOrder) {
  return { brand: order.brand, amount: moneyText(order.amount_cents, order.currency), expiresOn: order.expires_at ? dateText(order.expires_at) : null };
}

const notFound = (nonce: string): ClaimPage => ({ status: 404, html: template({ title: 'Gift card not found', notFound: true, nonce }) });
const expired = (order: GiftOrder, nonce: string): ClaimPage => ({
  status: 410,
  html: template({ title: 'Gift card expired', expired: true, ...orderValues(order), nonce }),
});

/** GET: what the gift is, and a button that POSTs to the same link. Changes nothing. */
export async function claimOfferPage(ctx: Pick<ServiceContext, 'models' | 'now'>, token: string, nonce: string): Promise<ClaimPage> {
  const order = await findClaim(ctx, token);
  if (!order) return notFound(nonce);
  const state = claimState(ctx, order);
  if (state === 'expired') return expired(order, nonce);
  return {
    status: 200,
    html: template({ title: `Your ${order.brand} gift card`, offer: true, claimedBefore: state === 'claimed', ...orderValues(order), nonce }),
  };
}

/** POST: the code (and PIN), the order marked claimed the first time. */
export async function claimRevealPage(ctx: Pick<ServiceContext, 'models' | 'now' | 'dataKeys' | 'nudge' | 'config'>, token: string, nonce: string): Promise<ClaimPage> {
  const result = await revealClaim(ctx, token);
  if (result.status === 'unknown') return notFound(nonce);
  if (result.status === 'expired') return expired(result.order, nonce);
  const codeExpiresOn = result.codeExpiresOn ? dateText(new Date(`${result.codeExpiresOn}T00:00:00Z`)) : null;
  return {
    status: 200,
    html: template({
      title: `Your ${result.order.brand} gift card`,
      revealed: true,
      ...orderValues(result.order),
      code: result.code,
      pin: result.pin,
      codeExpiresOn,
      nonce,
    }),
  };
}
