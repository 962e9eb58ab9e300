// Gift-card test data: codes put straight into an account's pool (encrypted as add-codes does), and readers of
// what a gift left behind (orders, the claim link in an email).
import type { DataKeys } from '../../lib/data-key.ts';
import type { Models } from '../../models/index.ts';
import { manualProductId } from '../../services/rewards/catalog.ts';
import { aadOf, codeHmacs, last4Of, normalizeCode } from '../../services/rewards/crypto.ts';
import { seal } from '../../lib/sealing.ts';

let counter = 0;

/** `count` fresh codes (unique in the run) of the pool; returns them in the order they were added. */
export async function seedCodes(models: Models, keys: DataKeys, accountId: number, brand: string, denominationCents: number, count: number): Promise<string[]> {
  const codes = Array.from({ length: count }, () => `GC-${process.pid}-${Date.now()}-${++counter}-XYZW`);
  const aad = aadOf(accountId, manualProductId(brand, denominationCents));
  await models.GiftCode.bulkCreate(
    codes.map((code) => {
      const sealed = seal(keys, aad, code);
      return {
        account_id: accountId,
        brand,
        denomination_cents: denominationCents,
        currency: 'USD',
        code_ciphertext: sealed.ciphertext,
        pin_ciphertext: null,
        key_id: sealed.keyId,
        code_hmac: codeHmacs(keys, code)[0]!,
        code_last4: last4Of(normalizeCode(code)),
        expires_on: null,
      };
    }),
  );
  return codes;
}

/** The claim link in an email's text (`…/g/<token>`). */
export function claimLinkIn(text: string): string | undefined {
  return /https?:\/\/\S+\/g\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
}
