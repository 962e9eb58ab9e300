// GET /key/info: the calling key's own permissions, capabilities, limits and usage (any valid key).
import { AREAS, type Permissions } from '../../models/ApiKey.ts';
import { defineRoute } from '../http/route.ts';
import { KeyInfo } from './schema.ts';

export function capabilitiesOf(permissions: Permissions): string[] {
  return AREAS.flatMap((area) => {
    const level = permissions[area];
    if (level === 'manage') return [`${area}:read`, `${area}:write`];
    return level === 'view' ? [`${area}:read`] : [];
  });
}

export const keyInfoRoutes = [
  defineRoute({
    method: 'get',
    path: '/key/info',
    summary: "The calling key's permissions, capabilities, rate limit and usage this hour",
    tags: ['keys'],
    access: 'any_key',
    response: KeyInfo,
    async handler(_input, { caller, services }) {
      const { apiKey, account, rate } = caller;
      const limits = services.config.rateLimits[account.plan];
      return {
        key_id: apiKey.id,
        name: apiKey.name,
        mode: account.mode,
        permissions: apiKey.permissions,
        capabilities: capabilitiesOf(apiKey.permissions),
        full_access: apiKey.full_access,
        rate_limit: { per_minute: limits.perMinute, per_hour: limits.perHour },
        usage_this_hour: rate.usageThisHour,
      };
    },
  }),
];
