// Contracts of the console's one-time confirmation tokens.
import { z } from 'zod';
import { TOKEN_PURPOSES, type TokenPurpose } from '../../../models/ConfirmationToken.ts';
import { TOKEN_PURPOSE_AREA } from '../../../services/confirmation-tokens.ts';
import type { RoleNeed } from '../../../services/team/roles.ts';
import { resource } from '../../schema-helpers.ts';

export const IssueTokenBody = z.object({
  purpose: z.enum(TOKEN_PURPOSES),
  resource_id: resource('token_resource', z
    .union([z.number().int().positive(), z.string().regex(/^[1-9][0-9]{0,15}$/).transform(Number)]))
    .nullable()
    .optional()
    .describe('the widget, eCard, campaign or automation id (none only for gc_automation_enable, a create)'),
});

export const IssuedToken = z.object({
  token: z.string().describe('shown only now; works once'),
  purpose: z.enum(TOKEN_PURPOSES),
  resource_id: z.number().int().nullable(),
  expires_at: z.string(),
});

/** A member issues a purpose's token when their role manages the gated action's area. */
export const purposeNeed = (purpose: TokenPurpose): RoleNeed => ({ area: TOKEN_PURPOSE_AREA[purpose], level: 'manage' });
