/**
 * Marking endpoints (阅卷): overview, the owner's assignments, the next answer to mark, scores, the
 * marker's history, arbitration and answer images. Thin: validate, call app.marking.marking, answer.
 */
import type { FastifyInstance } from 'fastify';
import {
  absenceParamsSchema,
  absenceUpdateSchema,
  answerParamsSchema,
  assignmentsUpdateSchema,
  closureUpdateSchema,
  homeworkParamsSchema,
  nextTaskRequestSchema,
  questionParamsSchema,
  scoreSubmitSchema,
  taskParamsSchema,
} from '../../../src/shared/contract/marking';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

export default async function markingRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { marking } = app.marking;

  app.get('/marking/homework/:id', authenticated, async (request) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    return ok(await marking.overview(requireAuth(request).userId, id));
  });

  app.put('/marking/homework/:id/assignments', authenticated, async (request) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    const input = parseInput(assignmentsUpdateSchema, request.body);
    return ok(await marking.updateAssignments(requireAuth(request).userId, id, input));
  });

  app.put('/marking/homework/:id/students/:studentId/absence', authenticated, async (request) => {
    const { id, studentId } = parseInput(absenceParamsSchema, request.params);
    const input = parseInput(absenceUpdateSchema, request.body);
    return ok(await marking.setAbsence(requireAuth(request).userId, id, studentId, input));
  });

  app.put('/marking/homework/:id/closure', authenticated, async (request) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    const input = parseInput(closureUpdateSchema, request.body);
    return ok(await marking.setClosure(requireAuth(request).userId, id, input));
  });

  app.post('/marking/homework/:id/questions/:no/next', authenticated, async (request) => {
    const { id, no } = parseInput(questionParamsSchema, request.params);
    const { skip } = parseInput(nextTaskRequestSchema, request.body);
    return ok(await marking.next(requireAuth(request).userId, id, no, skip));
  });

  app.post('/marking/tasks/:taskId/score', authenticated, async (request) => {
    const { taskId } = parseInput(taskParamsSchema, request.params);
    const input = parseInput(scoreSubmitSchema, request.body);
    return ok(await marking.score(requireAuth(request).userId, taskId, input));
  });

  app.get('/marking/homework/:id/questions/:no/history', authenticated, async (request) => {
    const { id, no } = parseInput(questionParamsSchema, request.params);
    return ok(await marking.history(requireAuth(request).userId, id, no));
  });

  app.get('/marking/homework/:id/arbitration', authenticated, async (request) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    return ok(await marking.arbitration(requireAuth(request).userId, id));
  });

  // A raw image, not the envelope; failures still answer with the envelope.
  app.get('/marking/answers/:answerId/image', authenticated, async (request, reply) => {
    const { answerId } = parseInput(answerParamsSchema, request.params);
    const image = await marking.answerImage(requireAuth(request).userId, answerId);
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=3600').send(image);
  });
}
