// Contract of GET /key/info.
import { z } from 'zod';
import { AREAS } from '../../models/ApiKey.ts';

const Level = z.enum(['none', 'view', 'manage']);

export const KeyInfo = z.object({
  key_id: z.number().int(),
  name: z.string(),
  mode: z.enum(['live', 'sandbox']),
  permissions: z.object(Object.fromEntries(AREAS.map((area) => [area, Level])) as Record<(typeof AREAS)[number], typeof Level>),
  capabilities: z.array(z.string()).describe('`<area>:read` for view, plus `<area>:write` for manage'),
  full_access: z.boolean(),
  rate_limit: z.object({ per_minute: z.number().int(), per_hour: z.number().int() }),
  usage_this_hour: z.number().int().describe('requests counted in the current UTC hour, this one included'),
});
