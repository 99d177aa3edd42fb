/**
 * Wrong-question re-practice endpoints (错题重练): the book by class and by student, the class's
 * most-missed list as Excel, a student's book as a PDF, the school's error causes, a book entry's error cause and 加入错题重练.
 * Thin: validate, call the rehearse service with the session's user, answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { idParamsSchema } from '../../../src/shared/contract/primitives';
import {
  classBookQuerySchema,
  classBookSchema,
  homeworkCausesQuerySchema,
  homeworkCausesSchema,
  queueBodySchema,
  queueListSchema,
  queueQuerySchema,
  queueResultSchema,
  rehearseOptionsSchema,
  rehearseSettingsBodySchema,
  rehearseSettingsSchema,
  setCauseBodySchema,
  studentBookQuerySchema,
  studentBookSchema,
} from '../../../src/shared/contract/rehearse';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { createRehearseService } from '../../services/rehearse/rehearse.service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PDF_TYPE = 'application/pdf';

const schemas = {
  options: { response: { 200: envelopeSchema(rehearseOptionsSchema) } },
  klass: { querystring: classBookQuerySchema, response: { 200: envelopeSchema(classBookSchema) } },
  xlsx: { querystring: classBookQuerySchema, produces: [XLSX_TYPE] },
  student: { querystring: studentBookQuerySchema, response: { 200: envelopeSchema(studentBookSchema) } },
  studentPdf: { querystring: studentBookQuerySchema, produces: [PDF_TYPE] },
  settings: { response: { 200: envelopeSchema(rehearseSettingsSchema) } },
  saveSettings: { body: rehearseSettingsBodySchema, response: { 200: envelopeSchema(rehearseSettingsSchema) } },
  cause: {
    params: idParamsSchema,
    body: setCauseBodySchema,
    response: { 200: envelopeSchema(z.object({ errorCause: z.string().nullable() })) },
  },
  enqueue: { body: queueBodySchema, response: { 200: envelopeSchema(queueResultSchema) } },
  queue: { querystring: queueQuerySchema, response: { 200: envelopeSchema(queueListSchema) } },
  homeworkCauses: {
    params: idParamsSchema,
    querystring: homeworkCausesQuerySchema,
    response: { 200: envelopeSchema(homeworkCausesSchema) },
  },
};

export default async function rehearseRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const rehearse = createRehearseService({ db: app.database.db, storage: app.storage });
  const user = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

  app.get('/rehearse/options', { ...authenticated, schema: schemas.options }, async (request) =>
    ok(await rehearse.options(user(request))),
  );
  app.get('/rehearse/class', { ...authenticated, schema: schemas.klass }, async (request) =>
    ok(await rehearse.classBook(user(request), request.query)),
  );
  // A raw file, not the envelope; failures still answer with the envelope.
  app.get('/rehearse/class.xlsx', { ...authenticated, schema: schemas.xlsx }, async (request, reply) => {
    const { file, fileName } = await rehearse.classXlsx(user(request), request.query);
    return reply.type(XLSX_TYPE).header('content-disposition', attachment(fileName)).send(file);
  });
  app.get('/rehearse/student', { ...authenticated, schema: schemas.student }, async (request) =>
    ok(await rehearse.studentBook(user(request), request.query)),
  );
  app.get('/rehearse/student.pdf', { ...authenticated, schema: schemas.studentPdf }, async (request, reply) => {
    const { file, fileName } = await rehearse.studentPdf(user(request), request.query);
    return reply.type(PDF_TYPE).header('content-disposition', attachment(fileName)).send(file);
  });
  app.get('/rehearse/settings', { ...authenticated, schema: schemas.settings }, async (request) =>
    ok(await rehearse.settings(user(request))),
  );
  app.put('/rehearse/settings', { ...authenticated, schema: schemas.saveSettings }, async (request) =>
    ok(await rehearse.saveSettings(user(request), request.body)),
  );
  app.put('/rehearse/wrong-questions/:id/cause', { ...authenticated, schema: schemas.cause }, async (request) =>
    ok(await rehearse.setCause(user(request), request.params.id, request.body.errorCause)),
  );
  app.post('/rehearse/queue', { ...authenticated, schema: schemas.enqueue }, async (request) =>
    ok(await rehearse.enqueue(user(request), request.body)),
  );
  app.get('/rehearse/queue', { ...authenticated, schema: schemas.queue }, async (request) =>
    ok(await rehearse.queue(user(request), request.query)),
  );
  app.get('/rehearse/homework/:id/causes', { ...authenticated, schema: schemas.homeworkCauses }, async (request) =>
    ok(await rehearse.homeworkCauses(user(request), request.params.id, request.query.classId)),
  );
}
