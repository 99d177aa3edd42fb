import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { idParamsSchema, noBodySchema } from '../../../src/shared/contract/primitives';
import {
  questionSetCreateSchema,
  questionSetDetailSchema,
  questionSetInputSchema,
  questionSetListQuerySchema,
  questionSetPageSchema,
  questionSetSummarySchema,
} from '../../../src/shared/contract/question-sets';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

const set = { 200: envelopeSchema(questionSetDetailSchema) };
const none = { 200: envelopeSchema(z.null()) };
const schemas = {
  list: { querystring: questionSetListQuerySchema, response: { 200: envelopeSchema(questionSetPageSchema) } },
  create: { body: questionSetCreateSchema, response: set },
  detail: { params: idParamsSchema, response: set },
  update: { params: idParamsSchema, body: questionSetInputSchema, response: set },
  remove: { params: idParamsSchema, response: none },
  share: { params: idParamsSchema, body: noBodySchema, response: { 200: envelopeSchema(questionSetSummarySchema) } },
  unshare: { params: idParamsSchema, response: none },
  copy: { params: idParamsSchema, body: noBodySchema, response: set },
};

/** 题目合集: the owner and admins change a set; colleagues read shared sets and copy them. */
export default async function questionSetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { sets } = app.papers;

  app.get('/question-sets', { ...authenticated, schema: schemas.list }, async (request) => {
    const { query } = request;
    return ok(await sets.list(requireAuth(request).userId, query));
  });

  app.post('/question-sets', { ...authenticated, schema: schemas.create }, async (request) => {
    const input = request.body;
    return ok(await sets.create(requireAuth(request).userId, input));
  });

  app.get('/question-sets/:id', { ...authenticated, schema: schemas.detail }, async (request) => {
    const { id } = request.params;
    return ok(await sets.detail(requireAuth(request).userId, id));
  });

  app.put('/question-sets/:id', { ...authenticated, schema: schemas.update }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    return ok(await sets.update(requireAuth(request).userId, id, input));
  });

  app.delete('/question-sets/:id', { ...authenticated, schema: schemas.remove }, async (request) => {
    const { id } = request.params;
    return ok(await sets.remove(requireAuth(request).userId, id));
  });

  app.post('/question-sets/:id/share', { ...authenticated, schema: schemas.share }, async (request) => {
    const { id } = request.params;
    return ok(await sets.share(requireAuth(request).userId, id));
  });

  app.delete('/question-sets/:id/share', { ...authenticated, schema: schemas.unshare }, async (request) => {
    const { id } = request.params;
    return ok(await sets.unshare(requireAuth(request).userId, id));
  });

  app.post('/question-sets/:id/copy', { ...authenticated, schema: schemas.copy }, async (request) => {
    const { id } = request.params;
    return ok(await sets.copy(requireAuth(request).userId, id));
  });
}
