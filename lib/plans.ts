// Plan names: the configuration (rate limits) and the accounts table share them.
export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
