import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerSheetSpecSchema, answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { classListSchema } from '../../../src/shared/contract/system';
import {
  answerSheetPdfQuerySchema,
  assignableClassesQuerySchema,
  homeworkCreateSchema,
  homeworkListQuerySchema,
  homeworkPageSchema,
  homeworkSchema,
  homeworkStatusUpdateSchema,
  scannableHomeworkSchema,
} from '../../../src/shared/contract/papers';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { idParamsSchema } from './question-bank.routes';

const homeworkAnswer = { 200: envelopeSchema(homeworkSchema) };
const schemas = {
  create: { body: homeworkCreateSchema, response: homeworkAnswer },
  list: { querystring: homeworkListQuerySchema, response: { 200: envelopeSchema(homeworkPageSchema) } },
  assignable: { querystring: assignableClassesQuerySchema, response: { 200: envelopeSchema(classListSchema) } },
  scannable: { response: { 200: envelopeSchema(scannableHomeworkSchema) } },
  detail: { params: idParamsSchema, response: homeworkAnswer },
  status: { params: idParamsSchema, body: homeworkStatusUpdateSchema, response: homeworkAnswer },
  spec: { params: idParamsSchema, response: { 200: envelopeSchema(answerSheetSpecSchema) } },
  template: { params: idParamsSchema, response: { 200: envelopeSchema(answerSheetTemplateSchema) } },
  /** Answers a PDF file (no response schema), or the envelope on failure. */
  pdf: { params: idParamsSchema, querystring: answerSheetPdfQuerySchema, produces: ['application/pdf'] },
};

export default async function homeworkRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { homework } = app.papers;

  app.post('/homework', { ...authenticated, schema: schemas.create }, async (request) => {
    const input = request.body;
    return ok(await homework.create(requireAuth(request).userId, input));
  });

  app.get('/homework', { ...authenticated, schema: schemas.list }, async (request) => {
    const query = request.query;
    return ok(await homework.list(requireAuth(request).userId, query));
  });

  app.get('/homework/assignable-classes', { ...authenticated, schema: schemas.assignable }, async (request) => {
    const { paperId } = request.query;
    return ok(await homework.assignableClasses(requireAuth(request).userId, paperId));
  });

  app.get('/homework/scannable', { ...authenticated, schema: schemas.scannable }, async (request) => {
    return ok(await homework.scannable(requireAuth(request).userId));
  });

  app.get('/homework/:id', { ...authenticated, schema: schemas.detail }, async (request) => {
    const { id } = request.params;
    return ok(await homework.detail(requireAuth(request).userId, id));
  });

  app.patch('/homework/:id/status', { ...authenticated, schema: schemas.status }, async (request) => {
    const { id } = request.params;
    const { status } = request.body;
    return ok(await homework.setStatus(requireAuth(request).userId, id, status));
  });

  app.get('/homework/:id/answer-sheet/spec', { ...authenticated, schema: schemas.spec }, async (request) => {
    const { id } = request.params;
    return ok(await homework.answerSheetSpec(requireAuth(request).userId, id));
  });

  app.get('/homework/:id/answer-sheet/template', { ...authenticated, schema: schemas.template }, async (request) => {
    const { id } = request.params;
    return ok(await homework.template(requireAuth(request).userId, id));
  });

  // A raw file, not the envelope; failures still answer with the envelope.
  app.get('/homework/:id/answer-sheet.pdf', { ...authenticated, schema: schemas.pdf }, async (request, reply) => {
    const { id } = request.params;
    const query = request.query;
    const { pdf, fileName } = await homework.answerSheetPdf(requireAuth(request).userId, id, query);
    return reply.type('application/pdf').header('content-disposition', attachment(fileName)).send(Buffer.from(pdf));
  });
}
