// The bodies every API response is written in: success and failure, standard or flat.
import type { ApiError } from '../../lib/errors.ts';
import type { Envelope } from './route.ts';

// Flat failures (send-ecard) carry a `reason`; the shared errors map to the spec's reason names.
const FLAT_REASONS: Record<string, string> = { rate_limited: 'limitReached', service_unavailable: 'unavailable' };

export function successBody(envelope: Envelope, data: unknown, meta?: unknown): Record<string, unknown> {
  if (envelope === 'flat') return { success: true, messages: [], ...(data as Record<string, unknown>) };
  return meta === undefined ? { success: true, data, messages: [] } : { success: true, data, messages: [], meta };
}

export function failureBody(envelope: Envelope, error: ApiError, requestId: string): Record<string, unknown> {
  const common = { messages: error.messages, code: error.code, request_id: requestId };
  if (envelope === 'flat') {
    return { success: false, reason: error.extra.reason ?? FLAT_REASONS[error.code] ?? error.code, ...common, ...error.extra };
  }
  return { success: false, data: null, ...common, ...error.extra };
}
