/**
 * Re-practice set endpoints (错题重练 · 举一反三): preview, make, print (with its progress); and each student's own answer
 * sheet of a homework for the simulated scanner. Thin: validate, call the set service with the
 * session's user, answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { idParamsSchema } from '../../../src/shared/contract/primitives';
import {
  setCreatedSchema,
  setCreateSchema,
  setOptionsSchema,
  pdfProgressParamsSchema,
  pdfProgressSchema,
  setPdfQuerySchema,
  setPreviewSchema,
  studentSheetSpecsQuerySchema,
  studentSheetSpecsSchema,
} from '../../../src/shared/contract/rehearse-sets';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { createRehearseSetService } from '../../services/rehearse-sets/rehearse-set.service';

const schemas = {
  preview: { body: setOptionsSchema, response: { 200: envelopeSchema(setPreviewSchema) } },
  create: { body: setCreateSchema, response: { 200: envelopeSchema(setCreatedSchema) } },
  /** Answers a PDF file (no response schema), or the envelope on failure. */
  pdf: { params: idParamsSchema, querystring: setPdfQuerySchema, produces: ['application/pdf'] },
  progress: { params: pdfProgressParamsSchema, response: { 200: envelopeSchema(pdfProgressSchema) } },
  studentSpecs: {
    params: idParamsSchema,
    querystring: studentSheetSpecsQuerySchema,
    response: { 200: envelopeSchema(studentSheetSpecsSchema) },
  },
};

export default async function rehearseSetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const sets = createRehearseSetService({ db: app.database.db });
  const user = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

  app.post('/rehearse/sets/preview', { ...authenticated, schema: schemas.preview }, async (request) =>
    ok(await sets.preview(user(request), request.body)),
  );

  app.post('/rehearse/sets', { ...authenticated, schema: schemas.create }, async (request) =>
    ok(await sets.create(user(request), request.body)),
  );

  app.get('/rehearse/sets/:id/pdf', { ...authenticated, schema: schemas.pdf }, async (request, reply) => {
    const { pdf, fileName } = await sets.pdf(user(request), request.params.id, request.query);
    return reply.type('application/pdf').header('content-disposition', attachment(fileName)).send(Buffer.from(pdf));
  });

  app.get('/rehearse/sets/pdf-progress/:key', { ...authenticated, schema: schemas.progress }, async (request) =>
    ok(sets.progress(user(request), request.params.key)),
  );

  app.get('/homework/:id/answer-sheet/student-specs', { ...authenticated, schema: schemas.studentSpecs }, async (request) =>
    ok({ sheets: await sets.studentSheetSpecs(user(request), request.params.id, request.query.keys === '1') }),
  );
}
