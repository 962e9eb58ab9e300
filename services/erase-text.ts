// Finding and blanking an erased address wherever it was written into free text (a rendered card, a mail's body, an
// event's JSON, an SMTP error). The database finds the candidate rows (LOWER(column) LIKE '%address%': `_` and `%`
// in an address only widen the search), the code rewrites exactly the mentions, case-insensitively. An event's JSON
// also loses the name beside the address (the object that holds it keeps no name or address fields).
import { fn, col, Op, where as sqlWhere, type Model, type ModelStatic, type Transaction, type WhereOptions } from 'sequelize';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mentions = (email: string) => new RegExp(escapeRegExp(email), 'gi');

/** `text` without any mention of `email` (every one blanked). */
export const withoutAddress = (text: string, email: string): string => text.replace(mentions(email), '');

const PERSONAL_KEY = /(e-?mail|name)$/i;

function scrubValue(value: unknown, email: string): unknown {
  if (typeof value === 'string') return withoutAddress(value, email);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, email));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    // The object that names the address (a sender, a recipient) also loses the name fields beside it.
    const names = entries.some(([, v]) => typeof v === 'string' && v.trim().toLowerCase() === email);
    return Object.fromEntries(entries.map(([k, v]) => [k, names && typeof v === 'string' && PERSONAL_KEY.test(k) ? '' : scrubValue(v, email)]));
  }
  return value;
}

/** A JSON text without the address (and the names beside it); a text that is not JSON is blanked as text. */
export function jsonWithoutAddress(text: string, email: string): string {
  try {
    return JSON.stringify(scrubValue(JSON.parse(text), email));
  } catch {
    return withoutAddress(text, email);
  }
}

/**
 * Rewrites the rows of `model` matching `where` whose `columns` mention `email`; `json` columns are rewritten as JSON.
 * Returns how many rows changed. `extra` gives more fields to set on a changed row (e.g. a skip reason).
 */
export async function scrubColumns<M extends Model>(
  model: ModelStatic<M>,
  where: WhereOptions,
  columns: { text?: readonly string[]; json?: readonly string[] },
  email: string,
  transaction: Transaction,
  extra?: (row: M) => Record<string, unknown>,
): Promise<number> {
  const text = columns.text ?? [];
  const json = columns.json ?? [];
  const all = [...text, ...json];
  if (all.length === 0) return 0;
  const needle = `%${email.toLowerCase()}%`;
  const rows = await model.findAll({
    where: { [Op.and]: [where, { [Op.or]: all.map((c) => sqlWhere(fn('LOWER', col(c)), { [Op.like]: needle })) }] },
    transaction,
  });
  let changed = 0;
  for (const row of rows) {
    const update: Record<string, unknown> = {};
    for (const c of all) {
      const value: unknown = row.get(c);
      if (typeof value !== 'string' || !value.toLowerCase().includes(email)) continue;
      update[c] = json.includes(c) ? jsonWithoutAddress(value, email) : withoutAddress(value, email);
    }
    if (Object.keys(update).length === 0) continue;
    await row.update({ ...update, ...extra?.(row) }, { transaction, silent: true } as never);
    changed += 1;
  }
  return changed;
}
