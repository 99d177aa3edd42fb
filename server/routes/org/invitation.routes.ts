/** Invitations: admins make, list and revoke them; anyone looks one up; a logged-in user accepts one. */
import type { FastifyInstance } from 'fastify';
import {
  createInvitationSchema,
  invitationLookupSchema,
  orgItemParamsSchema,
  orgParamsSchema,
} from '../../../src/shared/contract/org';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

export default async function invitationRoutes(app: FastifyInstance, options: RateLimitedRouteOptions) {
  const authenticated = { preHandler: app.authenticate };
  const { invitations } = app.org;

  app.post('/org/schools/:orgId/invitations', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    const input = parseInput(createInvitationSchema, request.body);
    return ok(await invitations.create(requireAuth(request).userId, orgId, input));
  });

  app.get('/org/schools/:orgId/invitations', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    return ok(await invitations.list(requireAuth(request).userId, orgId));
  });

  app.post('/org/schools/:orgId/invitations/:id/revoke', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    return ok(await invitations.revoke(requireAuth(request).userId, orgId, id));
  });

  // Public (the invitee may not have an account yet); limited per IP, as 6-digit codes can be guessed.
  app.get('/invitations/preview', { config: { rateLimit: options.rateLimit } }, async (request) => {
    const lookup = parseInput(invitationLookupSchema, request.query);
    return ok(await invitations.preview(lookup));
  });

  app.post('/invitations/accept', { preHandler: app.authenticate, config: { rateLimit: options.rateLimit } }, async (request) => {
    const lookup = parseInput(invitationLookupSchema, request.body);
    return ok(await invitations.accept(requireAuth(request).userId, lookup));
  });
}
