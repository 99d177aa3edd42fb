import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  questionInputSchema,
  questionPageSchema,
  questionQuerySchema,
  questionSchema,
  subjectListSchema,
  treeSchema,
} from '../../../src/shared/contract/papers';
import { idParamsSchema } from '../../../src/shared/contract/primitives';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

/** Kept here for the routes that import it from this file; it lives with the other primitives. */
export { idParamsSchema };

const tree = { params: idParamsSchema, response: { 200: envelopeSchema(treeSchema) } };
const question = { 200: envelopeSchema(questionSchema) };
const schemas = {
  subjects: { response: { 200: envelopeSchema(subjectListSchema) } },
  chapters: tree,
  knowledgePoints: tree,
  list: { querystring: questionQuerySchema, response: { 200: envelopeSchema(questionPageSchema) } },
  create: { body: questionInputSchema, response: question },
  update: { params: idParamsSchema, body: questionInputSchema, response: question },
  remove: { params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } },
};

export default async function questionBankRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { bank } = app.papers;

  app.get('/subjects', { ...authenticated, schema: schemas.subjects }, async (request) =>
    ok(await bank.subjects(requireAuth(request).userId)),
  );

  app.get('/subjects/:id/chapters', { ...authenticated, schema: schemas.chapters }, async (request) => {
    const { id } = request.params;
    return ok(await bank.tree(requireAuth(request).userId, id, 'chapters'));
  });

  app.get('/subjects/:id/knowledge-points', { ...authenticated, schema: schemas.knowledgePoints }, async (request) => {
    const { id } = request.params;
    return ok(await bank.tree(requireAuth(request).userId, id, 'knowledgePoints'));
  });

  app.get('/questions', { ...authenticated, schema: schemas.list }, async (request) => {
    const query = request.query;
    return ok(await bank.list(requireAuth(request).userId, query));
  });

  app.post('/questions', { ...authenticated, schema: schemas.create }, async (request) => {
    const input = request.body;
    return ok(await bank.create(requireAuth(request).userId, input));
  });

  app.put('/questions/:id', { ...authenticated, schema: schemas.update }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    return ok(await bank.update(requireAuth(request).userId, id, input));
  });

  app.delete('/questions/:id', { ...authenticated, schema: schemas.remove }, async (request) => {
    const { id } = request.params;
    return ok(await bank.remove(requireAuth(request).userId, id));
  });
}
