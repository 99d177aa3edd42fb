import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { questionInputSchema, questionQuerySchema } from '../../../src/shared/contract/papers';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

export const idParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export default async function questionBankRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { bank } = app.papers;

  app.get('/subjects', authenticated, async (request) => ok(await bank.subjects(requireAuth(request).userId)));

  app.get('/subjects/:id/chapters', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await bank.tree(requireAuth(request).userId, id, 'chapters'));
  });

  app.get('/subjects/:id/knowledge-points', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await bank.tree(requireAuth(request).userId, id, 'knowledgePoints'));
  });

  app.get('/questions', authenticated, async (request) => {
    const query = parseInput(questionQuerySchema, request.query);
    return ok(await bank.list(requireAuth(request).userId, query));
  });

  app.post('/questions', authenticated, async (request) => {
    const input = parseInput(questionInputSchema, request.body);
    return ok(await bank.create(requireAuth(request).userId, input));
  });

  app.put('/questions/:id', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    const input = parseInput(questionInputSchema, request.body);
    return ok(await bank.update(requireAuth(request).userId, id, input));
  });

  app.delete('/questions/:id', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await bank.remove(requireAuth(request).userId, id));
  });
}
