// Uploading manual gift codes into an account's inventory (`cardsvc rewards add-codes` and the console).
// Lines are `code[,pin][,expiry]`; each code and PIN is encrypted before it is written (AAD: the account and the
// pool's product id, so a row copied elsewhere does not decrypt), and a keyed hash of the normalized code refuses
// duplicates: against the account's codes under the current and the previous key, within the file, and, for an
// upload racing another one, by the unique index (account_id, code_hmac) as the last guard.
import { Op, UniqueConstraintError } from 'sequelize';
import { invalidValue } from '../../lib/errors.ts';
import type { ServiceContext } from '../context.ts';
import { manualProductId } from './catalog.ts';
import { aadOf, codeHmacs, last4Of, normalizeCode } from './crypto.ts';
import { keysOrThrow, seal } from '../../lib/sealing.ts';
import { loadSettings } from './settings.ts';

export interface AddCodesInput {
  brand: string;
  denominationCents: number;
  /** The file's text: one `code[,pin][,expiry]` per line, blank lines ignored. */
  text: string;
}

export interface AddCodesResult {
  added: number;
  duplicates: number;
  /** 1-based numbers of the lines that are not a code (nothing of them is written). */
  invalid_lines: number[];
}

/** Rows per INSERT (and hashes per lookup): well under every driver's placeholder limit. */
const CHUNK = 500;
const MAX_CODE = 200;
const MAX_PIN = 100;
/** A face value's ceiling (1,000,000.00): far above any card, well inside the INTEGER column. */
const MAX_DENOMINATION_CENTS = 100_000_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const invalid = (message: string) => invalidValue(message);

/** The brand as the product id carries it (`manual:<brand>:<denomination>`), so without `:`. */
export function validBrand(brand: string): string {
  const value = brand.trim();
  // eslint-disable-next-line no-control-regex
  if (value.length < 1 || value.length > 100 || value.includes(':') || /[\u0000-\u001f\u007f]/.test(value)) {
    throw invalid(`The brand must be 1 to 100 characters without ":" or control characters (got ${JSON.stringify(brand)})`);
  }
  return value;
}

function validDenomination(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents > MAX_DENOMINATION_CENTS) {
    throw invalid(`The denomination must be a positive amount with at most 2 decimals, up to ${MAX_DENOMINATION_CENTS / 100} (got ${cents / 100})`);
  }
  return cents;
}

/** A real calendar date written YYYY-MM-DD (2030-02-30 is not one). */
const isRealDate = (text: string) => DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;

interface Line {
  code: string;
  pin: string | null;
  expiresOn: string | null;
}

/**
 * One line's code, PIN and expiry, or null when it is not a code. Two fields are `code,expiry` when the second is
 * written as a date (YYYY-MM-DD), else `code,pin`; an empty PIN or expiry field means none.
 */
function parseLine(line: string): Line | null {
  const fields = line.split(',').map((f) => f.trim());
  if (fields.length > 3) return null;
  const [code = '', second = '', third] = fields;
  let pin = second;
  let expiry = third ?? '';
  if (fields.length === 2 && DATE.test(second)) {
    pin = '';
    expiry = second;
  }
  if (normalizeCode(code) === '' || code.length > MAX_CODE || pin.length > MAX_PIN) return null;
  if (expiry !== '' && !isRealDate(expiry)) return null;
  return { code, pin: pin === '' ? null : pin, expiresOn: expiry === '' ? null : expiry };
}

const chunks = <T>(items: T[]): T[][] => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

/** Adds the file's codes to the account's pool of `brand` at `denominationCents` (the account's currency). */
export async function addCodes(
  ctx: Pick<ServiceContext, 'config' | 'models' | 'dataKeys'>,
  accountId: number,
  input: AddCodesInput,
): Promise<AddCodesResult> {
  const brand = validBrand(input.brand);
  const cents = validDenomination(input.denominationCents);
  const keys = keysOrThrow(ctx.dataKeys);
  const aad = aadOf(accountId, manualProductId(brand, cents));
  const { currency } = await loadSettings(ctx, accountId);

  const invalidLines: number[] = [];
  let duplicates = 0;
  // By the code's hash under the current key: `abcd-1234` and `ABCD 1234` twice in one file are one card.
  const inFile = new Map<string, Line & { hmacs: string[] }>();
  input.text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n|\r/)
    .forEach((raw, index) => {
      if (raw.trim() === '') return;
      const line = parseLine(raw);
      if (!line) {
        invalidLines.push(index + 1);
        return;
      }
      const hmacs = codeHmacs(keys, line.code);
      if (inFile.has(hmacs[0]!)) duplicates += 1;
      else inFile.set(hmacs[0]!, { ...line, hmacs });
    });

  // Codes the account already has, written under either key.
  const candidates = [...inFile.values()];
  const known = new Set<string>();
  for (const hashes of chunks(candidates.flatMap((c) => c.hmacs))) {
    const rows = await ctx.models.GiftCode.findAll({ attributes: ['code_hmac'], where: { account_id: accountId, code_hmac: { [Op.in]: hashes } }, raw: true });
    for (const row of rows) known.add(row.code_hmac);
  }
  const fresh = candidates.filter((c) => !c.hmacs.some((h) => known.has(h)));
  duplicates += candidates.length - fresh.length;

  const rows = fresh.map((c) => {
    const code = seal(keys, aad, c.code);
    return {
      account_id: accountId,
      brand,
      denomination_cents: cents,
      currency,
      code_ciphertext: code.ciphertext,
      pin_ciphertext: c.pin === null ? null : seal(keys, aad, c.pin).ciphertext,
      key_id: code.keyId,
      code_hmac: c.hmacs[0]!,
      code_last4: last4Of(normalizeCode(c.code)),
      expires_on: c.expiresOn,
    };
  });
  let added = 0;
  for (const chunk of chunks(rows)) {
    try {
      await ctx.models.GiftCode.bulkCreate(chunk);
      added += chunk.length;
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
      // Another upload wrote some of these codes since the lookup: the one INSERT wrote nothing, so row by row.
      for (const row of chunk) {
        try {
          await ctx.models.GiftCode.create(row);
          added += 1;
        } catch (rowErr) {
          if (!(rowErr instanceof UniqueConstraintError)) throw rowErr;
          duplicates += 1;
        }
      }
    }
  }
  return { added, duplicates, invalid_lines: invalidLines };
}
