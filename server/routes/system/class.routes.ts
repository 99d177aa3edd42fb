import type { FastifyInstance } from 'fastify';
import { classListQuerySchema, updateClassDefaultSchema } from '../../../src/shared/contract/system';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

export default async function classRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };

  app.get('/system/class', authenticated, async (request) => {
    const query = parseInput(classListQuerySchema, request.query);
    return ok(await app.accounts.classes.list(requireAuth(request).userId, query));
  });

  app.put('/system/class/updateClassDefault', authenticated, async (request) => {
    const input = parseInput(updateClassDefaultSchema, request.body);
    return ok(await app.accounts.classes.setDefault(requireAuth(request).userId, input));
  });
}
