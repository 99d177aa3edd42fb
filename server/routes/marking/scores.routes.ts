/**
 * Score endpoints (成绩): a homework's score table and its Excel export. Thin: validate, call
 * app.marking.scores, answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { homeworkParamsSchema, scoreTableSchema } from '../../../src/shared/contract/marking';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const schemas = {
  table: { params: homeworkParamsSchema, response: { 200: envelopeSchema(scoreTableSchema) } },
  /** Answers an .xlsx file (no response schema), or the envelope on failure. */
  xlsx: { params: homeworkParamsSchema, produces: [XLSX_TYPE] },
};

export default async function scoresRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { scores } = app.marking;

  app.get('/marking/homework/:id/scores', { ...authenticated, schema: schemas.table }, async (request) => {
    const { id } = request.params;
    return ok(await scores.table(requireAuth(request).userId, id));
  });

  // A raw file, not the envelope; failures still answer with the envelope.
  app.get('/marking/homework/:id/scores.xlsx', { ...authenticated, schema: schemas.xlsx }, async (request, reply) => {
    const { id } = request.params;
    const { file, fileName } = await scores.xlsx(requireAuth(request).userId, id);
    return reply.type(XLSX_TYPE).header('content-disposition', attachment(fileName)).send(file);
  });
}
