import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OAUTH_BASIC_HEADER, tokenRequestSchema, tokenResponseSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { ApiError } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { type IssuedTokens, toTokenResponse } from '../../services/auth/token.service';
import type { RateLimitedRouteOptions } from '../route-options';

const GRANT_TYPES = ['password', 'sms', 'refresh_token'];

const tokenSchema = { body: tokenRequestSchema, response: { 200: envelopeSchema(tokenResponseSchema) } };
const signoutSchema = { response: { 200: envelopeSchema(z.null()) } };

/** The client and the grant type are checked before the body is validated: 401 before any 400. */
async function checkClientAndGrant(request: FastifyRequest) {
  if (request.headers.authorization !== OAUTH_BASIC_HEADER) throw ApiError.unauthorized('客户端认证失败');
  const grantType = (request.body as { grant_type?: unknown } | undefined)?.grant_type;
  if (typeof grantType !== 'string' || !GRANT_TYPES.includes(grantType)) {
    throw ApiError.badRequest('请求参数错误：grant_type 须为 password、sms 或 refresh_token');
  }
}

export default async function oauthRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { accounts } = app;

  const tokenResponse = async (userId: number, issued: IssuedTokens) =>
    ok(toTokenResponse(issued, await accounts.users.currentUser(userId)));

  const tokenRoute = { config: { rateLimit: options.rateLimit }, preValidation: checkClientAndGrant, schema: tokenSchema };
  app.post('/oauth/oauth/token', tokenRoute, async (request) => {
    const grant = request.body;
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

  app.delete('/oauth/signout', { preHandler: app.authenticate, schema: signoutSchema }, async (request) => {
    await accounts.tokens.revokeFamily(requireAuth(request).familyId);
    return ok(null);
  });
}
