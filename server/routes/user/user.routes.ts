import type { FastifyInstance } from 'fastify';
import {
  changeMobileRequestSchema,
  changePasswordRequestSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  updateProfileRequestSchema,
} from '../../../src/shared/contract/auth';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { toTokenResponse } from '../../services/auth/token.service';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

export default async function userRoutes(app: FastifyInstance, options: RateLimitedRouteOptions) {
  const { accounts } = app;
  const authenticated = { preHandler: app.authenticate };

  app.post('/user/register', { config: { rateLimit: options.rateLimit } }, async (request) => {
    const userId = await accounts.users.register(parseInput(registerRequestSchema, request.body));
    const issued = await accounts.tokens.issue(userId);
    return ok(toTokenResponse(issued, await accounts.users.currentUser(userId)));
  });

  app.post('/user/password/reset', { config: { rateLimit: options.rateLimit } }, async (request) => {
    await accounts.users.resetPassword(parseInput(resetPasswordRequestSchema, request.body));
    return ok(null);
  });

  app.put('/user/password', authenticated, async (request) => {
    const { userId, familyId } = requireAuth(request);
    await accounts.users.changePassword(userId, familyId, parseInput(changePasswordRequestSchema, request.body));
    return ok(null);
  });

  app.get('/user/info', authenticated, async (request) => ok(await accounts.users.currentUser(requireAuth(request).userId)));

  app.put('/user/profile', authenticated, async (request) => {
    const input = parseInput(updateProfileRequestSchema, request.body);
    return ok(await accounts.users.updateProfile(requireAuth(request).userId, input));
  });

  app.put('/user/mobile', authenticated, async (request) => {
    const input = parseInput(changeMobileRequestSchema, request.body);
    return ok(await accounts.users.changeMobile(requireAuth(request).userId, input));
  });
}
