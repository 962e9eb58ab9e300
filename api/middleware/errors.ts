// Renders every failure, first in the chain: typed errors with their status and code in the route's envelope;
// an unreachable database as 503; anything else as a generic 500 whose details go only to the log.
import type { Middleware } from 'koa';
import { isDatabaseBusy, isDatabaseUnreachable } from '../../lib/db.ts';
import { ApiError, internalError, serviceUnavailable } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ApiState } from '../context.ts';
import { failureBody } from '../http/envelope.ts';
import type { Envelope } from '../http/route.ts';

export function databaseUnavailable(): ApiError {
  return serviceUnavailable('The service is temporarily unavailable; retry in a few seconds', {
    headers: { 'Retry-After': '5' },
  });
}

function asApiError(err: unknown, logger: Logger, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnreachable(err)) {
    logger.warn({ err, requestId }, 'database unreachable');
    return databaseUnavailable();
  }
  if (isDatabaseBusy(err)) {
    // Still locked after every wait: busy, not broken; the client retries after Retry-After.
    logger.warn({ err, requestId }, 'database busy');
    return databaseUnavailable();
  }
  logger.error({ err, requestId }, 'unhandled error');
  return internalError('Something went wrong on our side; the request id identifies it in our logs');
}

export function errorRenderer(logger: Logger, envelopeFor: (method: string, path: string) => Envelope): Middleware<ApiState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const error = asApiError(err, logger, ctx.state.requestId);
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.body = failureBody(envelopeFor(ctx.method, ctx.path), error, ctx.state.requestId);
    }
  };
}
