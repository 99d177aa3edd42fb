/**
 * Auth plugin: reads `Authorization: Bearer <access token>`. Decorates `app.authenticate`, a preHandler
 * that answers 401 (UNAUTHORIZED_MESSAGE) for a missing, expired or revoked token and otherwise sets
 * `request.auth`. It does not log anyone in; see routes/oauth.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { UNAUTHORIZED_MESSAGE } from '../../src/shared/contract/auth';
import { ApiError } from '../lib/api-error';
import type { AuthContext } from '../services/auth/token.service';

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The caller of a route guarded by `app.authenticate`. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw ApiError.unauthorized(UNAUTHORIZED_MESSAGE);
  return request.auth;
}

async function authPlugin(app: FastifyInstance) {
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const auth = token && token.length <= 256 ? await app.accounts.tokens.authenticate(token) : null;
    if (!auth) throw ApiError.unauthorized(UNAUTHORIZED_MESSAGE);
    request.auth = auth;
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['accounts'] });
