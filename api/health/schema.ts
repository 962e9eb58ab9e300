// Contracts of the health probes: the same schemas describe the responses in the OpenAPI document.
import { z } from 'zod';

const CheckResult = z.enum(['ok', 'unavailable']);

export const LivenessResponse = z.object({ status: z.literal('ok') });

export const ReadinessResponse = z.object({
  status: z.enum(['ready', 'unavailable']),
  checks: z.object({ database: CheckResult, temporal: CheckResult }),
});
