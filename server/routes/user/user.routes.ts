import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeMobileRequestSchema,
  changePasswordRequestSchema,
  currentUserSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  tokenResponseSchema,
  updateProfileRequestSchema,
} from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { requireAuth } from '../../plugins/auth';
import { toTokenResponse } from '../../services/auth/token.service';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

const nothing = { 200: envelopeSchema(z.null()) };
const user = { 200: envelopeSchema(currentUserSchema) };
const schemas = {
  register: { body: registerRequestSchema, response: { 200: envelopeSchema(tokenResponseSchema) } },
  resetPassword: { body: resetPasswordRequestSchema, response: nothing },
  changePassword: { body: changePasswordRequestSchema, response: nothing },
  info: { response: user },
  profile: { body: updateProfileRequestSchema, response: user },
  mobile: { body: changeMobileRequestSchema, response: user },
};

export default async function userRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { accounts } = app;
  const authenticated = { preHandler: app.authenticate };

  app.post('/user/register', { config: { rateLimit: options.rateLimit }, schema: schemas.register }, async (request) => {
    const userId = await accounts.users.register(request.body);
    const issued = await accounts.tokens.issue(userId);
    return ok(toTokenResponse(issued, await accounts.users.currentUser(userId)));
  });

  app.post(
    '/user/password/reset',
    { config: { rateLimit: options.rateLimit }, schema: schemas.resetPassword },
    async (request) => {
      await accounts.users.resetPassword(request.body);
      return ok(null);
    },
  );

  app.put('/user/password', { ...authenticated, schema: schemas.changePassword }, async (request) => {
    const { userId, familyId } = requireAuth(request);
    await accounts.users.changePassword(userId, familyId, request.body);
    return ok(null);
  });

  app.get('/user/info', { ...authenticated, schema: schemas.info }, async (request) =>
    ok(await accounts.users.currentUser(requireAuth(request).userId)),
  );

  app.put('/user/profile', { ...authenticated, schema: schemas.profile }, async (request) => {
    const input = request.body;
    return ok(await accounts.users.updateProfile(requireAuth(request).userId, input));
  });

  app.put('/user/mobile', { ...authenticated, schema: schemas.mobile }, async (request) => {
    const input = request.body;
    return ok(await accounts.users.changeMobile(requireAuth(request).userId, input));
  });
}
