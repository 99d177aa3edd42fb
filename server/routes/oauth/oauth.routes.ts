import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAUTH_BASIC_HEADER, tokenRequestSchema } from '../../../src/shared/contract/auth';
import { ApiError, parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { type IssuedTokens, toTokenResponse } from '../../services/auth/token.service';
import type { RateLimitedRouteOptions } from '../route-options';

const GRANT_TYPES = ['password', 'sms', 'refresh_token'];

export default async function oauthRoutes(app: FastifyInstance, options: RateLimitedRouteOptions) {
  const { accounts } = app;

  const tokenResponse = async (userId: number, issued: IssuedTokens) =>
    ok(toTokenResponse(issued, await accounts.users.currentUser(userId)));

  app.post('/oauth/oauth/token', { config: { rateLimit: options.rateLimit } }, async (request: FastifyRequest) => {
    if (request.headers.authorization !== OAUTH_BASIC_HEADER) throw ApiError.unauthorized('客户端认证失败');
    const grantType = (request.body as { grant_type?: unknown } | undefined)?.grant_type;
    if (typeof grantType !== 'string' || !GRANT_TYPES.includes(grantType)) {
      throw ApiError.badRequest('请求参数错误：grant_type 须为 password、sms 或 refresh_token');
    }
    const grant = parseInput(tokenRequestSchema, request.body);
    switch (grant.grant_type) {
      case 'password': {
        const userId = await accounts.login.withPassword(grant);
        return tokenResponse(userId, await accounts.tokens.issue(userId));
      }
      case 'sms': {
        const userId = await accounts.login.withSms(grant);
        return tokenResponse(userId, await accounts.tokens.issue(userId));
      }
      case 'refresh_token': {
        const { userId, tokens } = await accounts.tokens.rotate(grant.refresh_token);
        return tokenResponse(userId, tokens);
      }
    }
  });

  app.delete('/oauth/signout', { preHandler: app.authenticate }, async (request) => {
    await accounts.tokens.revokeFamily(requireAuth(request).familyId);
    return ok(null);
  });
}
