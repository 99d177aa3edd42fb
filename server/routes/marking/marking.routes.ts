/**
 * Marking endpoints (阅卷): overview, the owner's assignments, the next answer to mark, scores, the
 * marker's history, arbitration and answer images. Thin: validate, call app.marking.marking, answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  absenceParamsSchema,
  absenceUpdateSchema,
  answerParamsSchema,
  assignmentsUpdateSchema,
  closureUpdateSchema,
  homeworkParamsSchema,
  markingOverviewSchema,
  markingTaskSchema,
  nextTaskRequestSchema,
  questionParamsSchema,
  scoreSubmitSchema,
  taskParamsSchema,
} from '../../../src/shared/contract/marking';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

const overview = { 200: envelopeSchema(markingOverviewSchema) };
const tasks = { 200: envelopeSchema(z.array(markingTaskSchema)) };
const schemas = {
  overview: { params: homeworkParamsSchema, response: overview },
  assignments: { params: homeworkParamsSchema, body: assignmentsUpdateSchema, response: overview },
  absence: { params: absenceParamsSchema, body: absenceUpdateSchema, response: overview },
  closure: { params: homeworkParamsSchema, body: closureUpdateSchema, response: overview },
  next: {
    params: questionParamsSchema,
    body: nextTaskRequestSchema,
    response: { 200: envelopeSchema(markingTaskSchema.nullable()) },
  },
  score: { params: taskParamsSchema, body: scoreSubmitSchema, response: { 200: envelopeSchema(markingTaskSchema) } },
  history: { params: questionParamsSchema, response: tasks },
  arbitration: { params: homeworkParamsSchema, response: tasks },
  /** Answers a JPEG (no response schema), or the envelope on failure. */
  answerImage: { params: answerParamsSchema, produces: ['image/jpeg'] },
};

export default async function markingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { marking } = app.marking;

  app.get('/marking/homework/:id', { ...authenticated, schema: schemas.overview }, async (request) => {
    const { id } = request.params;
    return ok(await marking.overview(requireAuth(request).userId, id));
  });

  app.put('/marking/homework/:id/assignments', { ...authenticated, schema: schemas.assignments }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    return ok(await marking.updateAssignments(requireAuth(request).userId, id, input));
  });

  app.put('/marking/homework/:id/students/:studentId/absence', { ...authenticated, schema: schemas.absence }, async (request) => {
    const { id, studentId } = request.params;
    const input = request.body;
    return ok(await marking.setAbsence(requireAuth(request).userId, id, studentId, input));
  });

  app.put('/marking/homework/:id/closure', { ...authenticated, schema: schemas.closure }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    return ok(await marking.setClosure(requireAuth(request).userId, id, input));
  });

  app.post('/marking/homework/:id/questions/:no/next', { ...authenticated, schema: schemas.next }, async (request) => {
    const { id, no } = request.params;
    const { skip } = request.body;
    return ok(await marking.next(requireAuth(request).userId, id, no, skip));
  });

  app.post('/marking/tasks/:taskId/score', { ...authenticated, schema: schemas.score }, async (request) => {
    const { taskId } = request.params;
    const input = request.body;
    return ok(await marking.score(requireAuth(request).userId, taskId, input));
  });

  app.get('/marking/homework/:id/questions/:no/history', { ...authenticated, schema: schemas.history }, async (request) => {
    const { id, no } = request.params;
    return ok(await marking.history(requireAuth(request).userId, id, no));
  });

  app.get('/marking/homework/:id/arbitration', { ...authenticated, schema: schemas.arbitration }, async (request) => {
    const { id } = request.params;
    return ok(await marking.arbitration(requireAuth(request).userId, id));
  });

  // A raw image, not the envelope; failures still answer with the envelope.
  app.get('/marking/answers/:answerId/image', { ...authenticated, schema: schemas.answerImage }, async (request, reply) => {
    const { answerId } = request.params;
    const image = await marking.answerImage(requireAuth(request).userId, answerId);
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=3600').send(image);
  });
}
