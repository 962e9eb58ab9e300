// What the console shows of an API key (never the key or its hash): the JSON API's groups and the pages share it.
import type { z } from 'zod';
import type { AccountView as Account, ApiKeyView as ApiKey } from '../../../services/api-keys.ts';
import type { Key } from './schema.ts';

export function presentConsoleKey(key: ApiKey, account: Account, now: Date): z.input<typeof Key> {
  const status = key.revoked_at === null ? 'active' : key.revoked_at.getTime() > now.getTime() ? 'rotating' : 'revoked';
  return {
    id: key.id,
    name: key.name,
    mode: account.mode === 'sandbox' ? 'sandbox' : 'live',
    last4: key.last4,
    full_access: key.full_access,
    permissions: key.permissions,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
    status,
    revoked_at: key.revoked_at?.toISOString() ?? null,
  };
}
