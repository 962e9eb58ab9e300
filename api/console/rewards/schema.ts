// Contracts of the console's reward endpoints. Reading answers exactly as the key API's (api/gift-cards/schema.ts);
// writing (settings, spend rules, codes) exists only here and in `cardsvc rewards` (decisions, Rewards).
import { z } from 'zod';
import { SPEND_PERIODS } from '../../../models/Gift.ts';
import { isWholeCents } from '../../../services/rewards/money.ts';

/** An amount in currency units with at most 2 decimals (the services check the bounds between fields). */
const amount = z
  .number()
  .min(0)
  .max(1_000_000)
  .refine(isWholeCents, 'expected an amount with at most 2 decimals, like 25 or 10.50');

export const SettingsBody = z.object({
  provider_mode: z.enum(['manual', 'provider']).optional(),
  min_amount: amount.optional().describe('smallest face value of one card (0.01 at least, at most max_amount)'),
  max_amount: amount.optional(),
  velocity_limits_enabled: z.boolean().optional().describe('false: spend is recorded and nothing refused'),
  claim_expiry_days: z.number().int().min(1).max(3650).optional(),
});

export const RuleBody = z.object({
  period: z.enum(SPEND_PERIODS).describe('UTC calendar day, week (from Monday) or month'),
  limit: amount.describe('at most this face value a period; 0 removes the rule'),
});

/** The JSON form of a code upload: the file's text (multipart/form-data takes the file itself: CodesForm). */
export const CodesBody = z.object({
  brand: z.string().min(1).max(100),
  denomination: amount.refine((a) => a > 0, 'expected a positive amount').describe('face value of every code in the file'),
  text: z.string().min(1).max(4 * 1024 * 1024).describe('one code[,pin][,expiry YYYY-MM-DD] a line, as the file holds them'),
});

/** The multipart form of a code upload (the page's file input, or the API's): the same fields, the file as `file`. */
export const CodesForm = CodesBody.omit({ text: true }).extend({ file: CodesBody.shape.text });

export const CodesResult = z.object({
  added: z.number().int(),
  duplicates: z.number().int().describe('already in the account, or twice in the file'),
  invalid_lines: z.array(z.number().int()).describe('1-based numbers of the lines that are not a code (nothing of them is written)'),
});
