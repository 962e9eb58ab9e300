// Contracts of the console's API keys: the account's keys (never the key itself), a new key shown once.
import { z } from 'zod';
import { AREAS, levelsOf, type Area, type Level } from '../../../models/ApiKey.ts';
import { numericId, resource } from '../../schema-helpers.ts';

const level = z.enum(['none', 'view', 'manage']);
/** A level per area (`team` and `audit` at most view: a key reads people and the log, never changes them); unlisted areas are none. */
const Permissions = z
  .strictObject(Object.fromEntries(AREAS.map((area) => [area, z.enum(levelsOf(area) as [Level, ...Level[]]).optional()])))
  .describe('a level per area (none, view, manage; team and audit: none or view); unlisted areas are none') as unknown as z.ZodType<Partial<Record<Area, Level>>>;
const name = z.string().trim().max(100);

export const KeyIdParams = z.object({ id: resource('api_key', numericId()) });

export const CreateKeyBody = z
  .object({ name: name.optional(), full_access: z.boolean().optional(), permissions: Permissions.optional() })
  .refine((b) => (b.full_access === true) !== (b.permissions !== undefined), { message: 'give either full_access: true or permissions' });

export const UpdateKeyBody = z
  .object({ name: name.optional(), permissions: Permissions.optional() })
  .refine((b) => b.name !== undefined || b.permissions !== undefined, { message: 'give name, permissions or both' });

export const RotateKeyBody = z.object({ grace_seconds: z.number().int().min(0).max(7 * 86_400).default(0).describe('how long the old key keeps working') }).optional();

export const Key = z.object({
  id: z.number().int(),
  name: z.string(),
  mode: z.enum(['live', 'sandbox']),
  last4: z.string().describe('the last 4 characters of the key, to tell keys apart'),
  full_access: z.boolean(),
  permissions: z.record(z.enum(AREAS), level),
  created_at: z.string(),
  last_used_at: z.string().nullable().describe('updated at most once a minute'),
  status: z.enum(['active', 'rotating', 'revoked']).describe('rotating: revoked at revoked_at, after a rotation\'s grace'),
  revoked_at: z.string().nullable(),
});
export const KeyList = z.object({ keys: z.array(Key) });
export const CreatedKey = z.object({ key: z.string().describe('shown only now'), api_key: Key });
export const RotatedKey = z.object({ key: z.string().describe('the new key, shown only now'), api_key: Key, replaced: Key });
