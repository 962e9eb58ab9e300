// Contracts of the console's session endpoints.
import { z } from 'zod';
import { numericId, resource } from '../../schema-helpers.ts';
import { ROLES } from '../../../services/team/roles.ts';

const email = z.string().trim().min(1).max(254);
const password = z.string().min(1).max(1024);

export const CsrfAnswer = z.object({ csrf_token: z.string().describe('send it back as X-CSRF-Token on sign-in') });
export const SignInBody = z.object({ email, password });
export const ModeBody = z.object({ mode: z.enum(['live', 'sandbox']) });
export const SwitchBody = z.object({ account_id: resource('account', numericId()).describe('one of Me’s accounts (any other id is 404)') });
export const StepUpBody = z.object({ password });
export const PasswordBody = z.object({ current_password: password, new_password: z.string().min(1).max(1024) });

const RoleName = z.enum(ROLES);

export const Me = z.object({
  owner_email: z.string().describe('the signed-in person’s email (as user.email)'),
  user: z.object({ id: z.number().int(), email: z.string(), name: z.string(), totp_enabled: z.boolean() }),
  role: RoleName.describe('their role in this account'),
  accounts: z.array(z.object({ account_id: z.number().int(), name: z.string(), role: RoleName })).describe('every live account they are a member of, oldest membership first'),
  account_id: z.number().int().describe('the live account'),
  account_name: z.string(),
  plan: z.string(),
  mode: z.enum(['live', 'sandbox']),
  /** The account the console works on now (the sandbox twin's id in sandbox mode). */
  current_account_id: z.number().int(),
  csrf_token: z.string().describe('send it as X-CSRF-Token (or the form field _csrf) with every POST'),
  step_up_until: z.string().nullable().describe('sensitive actions are allowed until then (ISO 8601), or null'),
  session_expires_at: z.string().describe('the absolute end of the session (12 h after sign-in)'),
});
export const Done = z.object({ ok: z.literal(true) });
