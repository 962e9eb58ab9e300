// Bearer authentication of every /v2/api request, before routing (so an unknown path without a key is 401).
import type { Middleware } from 'koa';
import { type ApiError, type ErrorFactory, invalidApiKey, invalidAuthScheme, malformedApiKey, missingApiKey, revokedApiKey } from '../../lib/errors.ts';
import type { KeyAuthenticator } from '../../services/api-keys.ts';
import type { ApiState } from '../context.ts';

function unauthorized(error: ErrorFactory, message: string): ApiError {
  return error(message, { headers: { 'WWW-Authenticate': 'Bearer realm="cardsvc"' } });
}

const REJECTIONS = {
  malformed: unauthorized(malformedApiKey, 'The API key is malformed'),
  unknown: unauthorized(invalidApiKey, 'The API key is not valid'),
  revoked: unauthorized(revokedApiKey, 'The API key has been revoked'),
};

export function authenticate(keys: KeyAuthenticator): Middleware<ApiState> {
  return async (ctx, next) => {
    const header = ctx.get('Authorization');
    if (!header) throw unauthorized(missingApiKey, 'Missing API key: send the header Authorization: Bearer <API key>');
    const [scheme = '', key = '', ...rest] = header.trim().split(/\s+/);
    if (scheme.toLowerCase() === 'bearer' && key === '') throw unauthorized(missingApiKey, 'The Authorization header has no API key after "Bearer"');
    if (scheme.toLowerCase() !== 'bearer' || rest.length > 0) {
      throw unauthorized(invalidAuthScheme, 'The Authorization header must be "Bearer <API key>"');
    }
    const found = await keys.authenticate(key);
    if (typeof found === 'string') throw REJECTIONS[found];
    ctx.state.authenticated = found;
    await next();
  };
}
