import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  classListQuerySchema,
  classListSchema,
  updateClassDefaultResponseSchema,
  updateClassDefaultSchema,
} from '../../../src/shared/contract/system';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

const schemas = {
  list: { querystring: classListQuerySchema, response: { 200: envelopeSchema(classListSchema) } },
  setDefault: { body: updateClassDefaultSchema, response: { 200: envelopeSchema(updateClassDefaultResponseSchema) } },
};

export default async function classRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };

  app.get('/system/class', { ...authenticated, schema: schemas.list }, async (request) => {
    const query = request.query;
    return ok(await app.accounts.classes.list(requireAuth(request).userId, query));
  });

  app.put('/system/class/updateClassDefault', { ...authenticated, schema: schemas.setDefault }, async (request) => {
    const input = request.body;
    return ok(await app.accounts.classes.setDefault(requireAuth(request).userId, input));
  });
}
