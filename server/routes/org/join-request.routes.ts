/** Join requests by 学校码: a teacher asks, the school's creator or admins approve or decline. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  joinRequestCreateSchema,
  joinRequestDecisionSchema,
  joinRequestListSchema,
  joinRequestSchema,
  orgItemParamsSchema,
  orgParamsSchema,
} from '../../../src/shared/contract/org';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

const request = { 200: envelopeSchema(joinRequestSchema) };
const list = { 200: envelopeSchema(joinRequestListSchema) };
const schemas = {
  create: { body: joinRequestCreateSchema, response: request },
  mine: { response: list },
  pending: { params: orgParamsSchema, response: list },
  decide: { params: orgItemParamsSchema, body: joinRequestDecisionSchema, response: request },
};

export default async function joinRequestRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { joinRequests } = app.org;

  // Limited per IP: school codes can be guessed.
  app.post(
    '/org/join-requests',
    { ...authenticated, config: { rateLimit: options.rateLimit }, schema: schemas.create },
    async (req) => ok(await joinRequests.request(requireAuth(req).userId, req.body.code)),
  );

  app.get('/org/join-requests/mine', { ...authenticated, schema: schemas.mine }, async (req) =>
    ok(await joinRequests.mine(requireAuth(req).userId)),
  );

  app.get('/org/schools/:orgId/join-requests', { ...authenticated, schema: schemas.pending }, async (req) =>
    ok(await joinRequests.pending(requireAuth(req).userId, req.params.orgId)),
  );

  app.post('/org/schools/:orgId/join-requests/:id/decision', { ...authenticated, schema: schemas.decide }, async (req) => {
    const { orgId, id } = req.params;
    return ok(await joinRequests.decide(requireAuth(req).userId, orgId, id, req.body.approve));
  });
}
