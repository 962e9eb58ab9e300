// Renders every failure in the envelope; an unexpected error becomes a generic 500 and its details go only to the log.
import type { Middleware } from 'koa';
import { ApiError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';

export function failureBody(requestId: string, error: ApiError) {
  return { success: false, data: null, messages: [error.message], code: error.code, request_id: requestId, ...error.extra };
}

export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ApiError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
    } catch (err) {
      const requestId = ctx.state.requestId as string;
      const known = err instanceof ApiError ? err : undefined;
      if (!known) logger.error({ err, requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
      const error = known ?? new ApiError(500, 'internal_error', 'Something went wrong on our side; the request id identifies it in our logs');
      ctx.status = error.status;
      ctx.body = failureBody(requestId, error);
    }
  };
}
