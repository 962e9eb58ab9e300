// The provider adapter: how a gift is bought from a catalog behind an API. A buy names the caller's order id as
// `external_id`, so a retried buy (a timeout, a crashed worker) finds the first purchase instead of making a
// second. Only the simulated provider is built in (./simulated-provider.ts); the composition root builds it.
import type { Config } from '../../lib/config.ts';

export interface BuyRequest {
  externalId: string;
  accountId: number;
  sku: string;
  amountCents: number;
}

export type BuyResult = { status: 'fulfilled'; code: string; pin: string | null } | { status: 'declined'; reason: string };

export interface GiftProvider {
  name: string;
  buy(request: BuyRequest, signal: AbortSignal): Promise<BuyResult>;
  /** Gives the purchase back (a gift whose email could not be delivered); done twice is done once. */
  refund(externalId: string): Promise<void>;
}

/** The providers by name, as the composition root built them (ServiceContext.giftProviders). */
export type GiftProviders = Readonly<Record<string, GiftProvider>>;

/** A buy that took longer than REWARDS_PROVIDER_TIMEOUT_SECONDS: its outcome is unknown, so it is asked again. */
export class ProviderTimeoutError extends Error {
  override name = 'ProviderTimeoutError';
}

export function providerNamed(ctx: { giftProviders: GiftProviders }, name: string): GiftProvider {
  const provider = Object.hasOwn(ctx.giftProviders, name) ? ctx.giftProviders[name] : undefined;
  if (provider) return provider;
  throw new Error(`No reward provider named ${JSON.stringify(name)}`);
}

/** The buy, given up after the configured timeout (the provider is asked again by the caller's retry). */
export async function buyWithTimeout(ctx: { config: Config }, provider: GiftProvider, request: BuyRequest): Promise<BuyResult> {
  const seconds = ctx.config.rewards.providerTimeoutSeconds;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ProviderTimeoutError(`The ${provider.name} provider did not answer the buy of order ${request.externalId} within ${seconds} s`));
    }, seconds * 1000);
  });
  try {
    return await Promise.race([provider.buy(request, controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
