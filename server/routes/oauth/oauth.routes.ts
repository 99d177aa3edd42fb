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
const TOO_FREQUENT = '操作过于频繁，请稍后再试';

export type OauthRouteOptions = RateLimitedRouteOptions & {
  /** Password and SMS logins per minute for one account, from any address. */
  perAccountPerMinute: number;
  /** Refreshes per minute for one login session (token family). */
  perSessionPerMinute: number;
};

const tokenSchema = { body: tokenRequestSchema, response: { 200: envelopeSchema(tokenResponseSchema) } };
const signoutSchema = { response: { 200: envelopeSchema(z.null()) } };

/**
 * The token endpoint's limits: logins count per address (options.rateLimit) and per account; refreshes
 * count per login session, so a whole school behind one NAT address refreshing its sessions is never
 * throttled as one caller.
 */
function tokenLimits(app: FastifyInstance, options: OauthRouteOptions) {
  const keys = new WeakMap<FastifyRequest, string>();
  const limiter = (max: number) =>
    app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => keys.get(request) ?? `ip:${request.ip}` });
  const perAddress = limiter(options.rateLimit.max);
  const perAccount = limiter(options.perAccountPerMinute);
  const perSession = limiter(options.perSessionPerMinute);
  return async (request: FastifyRequest, limit: 'address' | 'account' | 'session', key: string) => {
    keys.set(request, `token-${limit}:${key}`);
    const check = limit === 'address' ? perAddress : limit === 'account' ? perAccount : perSession;
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) throw new ApiError(429, TOO_FREQUENT);
  };
}

export default async function oauthRoutes(fastify: FastifyInstance, options: OauthRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { accounts } = app;
  const limit = tokenLimits(app, options);

  const tokenResponse = async (userId: number, issued: IssuedTokens) =>
    ok(toTokenResponse(issued, await accounts.users.currentUser(userId)));

  /**
   * Before the body is validated: logins are limited per address, then the client and the grant type are
   * checked (401 before any 400).
   */
  const checkClientAndGrant = async (request: FastifyRequest) => {
    const grantType = (request.body as { grant_type?: unknown } | undefined)?.grant_type;
    if (grantType !== 'refresh_token') await limit(request, 'address', request.ip);
    if (request.headers.authorization !== OAUTH_BASIC_HEADER) throw ApiError.unauthorized('客户端认证失败');
    if (typeof grantType !== 'string' || !GRANT_TYPES.includes(grantType)) {
      throw ApiError.badRequest('请求参数错误：grant_type 须为 password、sms 或 refresh_token');
    }
  };

  app.post('/oauth/oauth/token', { preValidation: checkClientAndGrant, schema: tokenSchema }, async (request) => {
    const grant = request.body;
    switch (grant.grant_type) {
      case 'password': {
        await limit(request, 'account', `name:${grant.username.toLowerCase()}`);
        const userId = await accounts.login.withPassword(grant, request.ip);
        return tokenResponse(userId, await accounts.tokens.issue(userId));
      }
      case 'sms': {
        await limit(request, 'account', `mobile:${grant.mobile}`);
        const userId = await accounts.login.withSms(grant);
        return tokenResponse(userId, await accounts.tokens.issue(userId));
      }
      case 'refresh_token': {
        // An unknown token is limited by address: guessing costs as much as any other bad request.
        const familyId = await accounts.tokens.familyOfRefreshToken(grant.refresh_token);
        await (familyId ? limit(request, 'session', familyId) : limit(request, 'address', request.ip));
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
