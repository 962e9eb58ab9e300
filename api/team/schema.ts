// Contracts of an account's people as the console and the key API's `team` area read them.
import { z } from 'zod';
import { ROLES } from '../../models/Membership.ts';
import { numericId, PageMeta, pageQuery, resource } from '../schema-helpers.ts';

export const MembersQuery = z.object(pageQuery().shape);

export const TeamMember = z.object({
  user_id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  totp_enabled: z.boolean().describe('whether they sign in with a second factor'),
  joined_at: z.string(),
  last_sign_in_at: z.string().nullable(),
});
export const MemberList = z.array(TeamMember);
export { PageMeta };

export const MemberParams = z.object({ user_id: resource('console_user', numericId()) });
export const RoleBody = z.object({ role: z.enum(ROLES).describe('owner is refused (422 owner_by_transfer): the owner transfers the account instead') });
export const Done = z.object({ ok: z.literal(true) });
