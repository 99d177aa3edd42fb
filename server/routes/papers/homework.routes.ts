import type { FastifyInstance } from 'fastify';
import {
  answerSheetPdfQuerySchema,
  homeworkCreateSchema,
  homeworkListQuerySchema,
  homeworkStatusUpdateSchema,
} from '../../../src/shared/contract/papers';
import { parseInput } from '../../lib/api-error';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { idParamsSchema } from './question-bank.routes';

export default async function homeworkRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { homework } = app.papers;

  app.post('/homework', authenticated, async (request) => {
    const input = parseInput(homeworkCreateSchema, request.body);
    return ok(await homework.create(requireAuth(request).userId, input));
  });

  app.get('/homework', authenticated, async (request) => {
    const query = parseInput(homeworkListQuerySchema, request.query);
    return ok(await homework.list(requireAuth(request).userId, query));
  });

  app.get('/homework/:id', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await homework.detail(requireAuth(request).userId, id));
  });

  app.patch('/homework/:id/status', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    const { status } = parseInput(homeworkStatusUpdateSchema, request.body);
    return ok(await homework.setStatus(requireAuth(request).userId, id, status));
  });

  app.get('/homework/:id/answer-sheet/spec', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await homework.answerSheetSpec(requireAuth(request).userId, id));
  });

  app.get('/homework/:id/answer-sheet/template', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await homework.template(requireAuth(request).userId, id));
  });

  // A raw file, not the envelope; failures still answer with the envelope.
  app.get('/homework/:id/answer-sheet.pdf', authenticated, async (request, reply) => {
    const { id } = parseInput(idParamsSchema, request.params);
    const query = parseInput(answerSheetPdfQuerySchema, request.query);
    const { pdf, fileName } = await homework.answerSheetPdf(requireAuth(request).userId, id, query);
    return reply.type('application/pdf').header('content-disposition', attachment(fileName)).send(Buffer.from(pdf));
  });
}
