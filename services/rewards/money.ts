// Amounts: the API speaks in currency units (25, 10.5), the database in whole cents.
export const toCents = (amount: number) => Math.round(amount * 100);
export const fromCents = (cents: number) => Math.round(Number(cents)) / 100;

/** An amount as a product id writes it: `25`, `10.5` → `10.50`. */
export const amountText = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** True when the amount has no more than two decimals (10.134 is not money). */
export const isWholeCents = (amount: number) => Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6;
