/** Invitations: admins make, list and revoke them; anyone looks one up; a logged-in user accepts one. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUserSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  createInvitationSchema,
  invitationListSchema,
  invitationLookupSchema,
  invitationPreviewSchema,
  invitationSchema,
  orgItemParamsSchema,
  orgParamsSchema,
} from '../../../src/shared/contract/org';
import { noBodySchema } from '../../../src/shared/contract/primitives';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

const invitation = { 200: envelopeSchema(invitationSchema) };
const schemas = {
  create: { params: orgParamsSchema, body: createInvitationSchema, response: invitation },
  list: { params: orgParamsSchema, response: { 200: envelopeSchema(invitationListSchema) } },
  revoke: { params: orgItemParamsSchema, body: noBodySchema, response: invitation },
  preview: { querystring: invitationLookupSchema, response: { 200: envelopeSchema(invitationPreviewSchema) } },
  accept: { body: invitationLookupSchema, response: { 200: envelopeSchema(currentUserSchema) } },
};

export default async function invitationRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { invitations } = app.org;

  app.post('/org/schools/:orgId/invitations', { ...authenticated, schema: schemas.create }, async (request) => {
    const { orgId } = request.params;
    const input = request.body;
    return ok(await invitations.create(requireAuth(request).userId, orgId, input));
  });

  app.get('/org/schools/:orgId/invitations', { ...authenticated, schema: schemas.list }, async (request) => {
    const { orgId } = request.params;
    return ok(await invitations.list(requireAuth(request).userId, orgId));
  });

  app.post('/org/schools/:orgId/invitations/:id/revoke', { ...authenticated, schema: schemas.revoke }, async (request) => {
    const { orgId, id } = request.params;
    return ok(await invitations.revoke(requireAuth(request).userId, orgId, id));
  });

  // Public (the invitee may not have an account yet); limited per IP, as 6-digit codes can be guessed.
  app.get('/invitations/preview', { config: { rateLimit: options.rateLimit }, schema: schemas.preview }, async (request) => {
    const lookup = request.query;
    return ok(await invitations.preview(lookup));
  });

  app.post(
    '/invitations/accept',
    { preHandler: app.authenticate, config: { rateLimit: options.rateLimit }, schema: schemas.accept },
    async (request) => {
      const lookup = request.body;
      return ok(await invitations.accept(requireAuth(request).userId, lookup));
    },
  );
}
