// The settings change of a console request (JSON API or page form): amounts to cents, each field optional.
import type { z } from 'zod';
import { toCents } from '../../../services/rewards/money.ts';
import type { SettingsChange } from '../../../services/rewards/settings.ts';
import type { SettingsBody } from './schema.ts';

export function settingsChangeOf(body: z.output<typeof SettingsBody>): SettingsChange {
  const change: SettingsChange = {};
  if (body.provider_mode !== undefined) change.provider_mode = body.provider_mode;
  if (body.min_amount !== undefined) change.min_cents = toCents(body.min_amount);
  if (body.max_amount !== undefined) change.max_cents = toCents(body.max_amount);
  if (body.velocity_limits_enabled !== undefined) change.velocity_limits_enabled = body.velocity_limits_enabled;
  if (body.claim_expiry_days !== undefined) change.claim_expiry_days = body.claim_expiry_days;
  return change;
}
