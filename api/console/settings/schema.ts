// Contracts of the console's directory and sending settings: custom date fields, suppressed addresses and blocked
// domains.
import { z } from 'zod';
import { pageQuery } from '../../schema-helpers.ts';

export const CustomFieldBody = z.object({
  key: z.string().min(1).max(64).describe('a lower-case identifier (a-z, 0-9, _) that no built-in field uses'),
  label: z.string().trim().min(1).max(200),
  required: z.boolean().default(false),
});
export const CustomFieldParams = z.object({ key: z.string().min(1).max(64) });

export const CustomField = z.object({
  id: z.number().int(),
  key: z.string().describe('upserts set it as custom_fields.<key> (YYYY-MM-DD)'),
  label: z.string(),
  type: z.string(),
  required: z.boolean(),
  active: z.boolean().describe('false once removed (members keep their values; adding the key again restores them)'),
});
export const CustomFieldList = z.array(CustomField);

/** Exactly one of an address or a domain. */
export const SuppressionBody = z
  .object({ email: z.string().min(1).max(254).optional(), domain: z.string().min(1).max(253).optional() })
  .refine((b) => (b.email === undefined) !== (b.domain === undefined), 'give exactly one of email or domain');

export const SuppressionsQuery = z.object({
  ...pageQuery().shape,
  kind: z.enum(['email', 'domain']).optional().describe('absent: both'),
});

export const Suppression = z.object({
  kind: z.enum(['email', 'domain']),
  value: z.string().describe('the address or domain, lower-cased'),
  reason: z.string().nullable().describe('why the service suppressed it (`hard bounce 5.1.1: …`, `complaint: abuse`, `unsubscribed`); null when the account added it (or, before bounces were recorded, an unsubscribe link)'),
  created_at: z.string(),
});
export const SuppressionList = z.array(Suppression);

export const SuppressionChange = z.object({
  kind: z.enum(['email', 'domain']),
  value: z.string(),
  blocked: z.boolean().describe('whether it is blocked now'),
  changed: z.boolean().describe('false when it already was (add) or was not (remove)'),
});
