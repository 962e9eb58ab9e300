// The simulated provider's catalog: a few brands with a range of amounts and the countries they are sold in.
export const SIMULATED_CATALOG = [
  { sku: 'AMAZON-US', brand: 'Amazon', name: 'Amazon.com Gift Card', min_cents: 100, max_cents: 50_000, countries: ['US'] },
  { sku: 'STARBUCKS-US', brand: 'Starbucks', name: 'Starbucks eGift', min_cents: 500, max_cents: 10_000, countries: ['US', 'CA'] },
  { sku: 'TARGET-US', brand: 'Target', name: 'Target GiftCard', min_cents: 100, max_cents: 50_000, countries: ['US'] },
  { sku: 'AMAZON-UK', brand: 'Amazon', name: 'Amazon.co.uk Gift Card', min_cents: 100, max_cents: 50_000, countries: ['GB', 'IE'] },
  { sku: 'VISA-GLOBAL', brand: 'Visa', name: 'Visa Virtual Prepaid', min_cents: 1_000, max_cents: 50_000, countries: ['US', 'CA', 'GB', 'IE', 'DE', 'FR'] },
] as const;
