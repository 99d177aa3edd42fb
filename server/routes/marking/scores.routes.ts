/**
 * Score endpoints (成绩): a homework's score table and its Excel export. Thin: validate, call
 * app.marking.scores, answer.
 */
import type { FastifyInstance } from 'fastify';
import { homeworkParamsSchema } from '../../../src/shared/contract/marking';
import { parseInput } from '../../lib/api-error';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export default async function scoresRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { scores } = app.marking;

  app.get('/marking/homework/:id/scores', authenticated, async (request) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    return ok(await scores.table(requireAuth(request).userId, id));
  });

  // A raw file, not the envelope; failures still answer with the envelope.
  app.get('/marking/homework/:id/scores.xlsx', authenticated, async (request, reply) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    const { file, fileName } = await scores.xlsx(requireAuth(request).userId, id);
    return reply.type(XLSX_TYPE).header('content-disposition', attachment(fileName)).send(file);
  });
}
