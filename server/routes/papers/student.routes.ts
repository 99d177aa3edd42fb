import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  rosterImportResultSchema,
  studentArchiveSchema,
  studentInputSchema,
  studentListQuerySchema,
  studentListSchema,
  studentSchema,
  studentUpdateSchema,
} from '../../../src/shared/contract/papers';
import { ApiError } from '../../lib/api-error';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { rosterTemplate } from '../../services/papers/student.service';
import { idParamsSchema } from './question-bank.routes';

/** A roster file is a few hundred kilobytes at most. */
const MAX_ROSTER_BYTES = 5 * 1024 * 1024;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const student = { 200: envelopeSchema(studentSchema) };
const schemas = {
  list: { params: idParamsSchema, querystring: studentListQuerySchema, response: { 200: envelopeSchema(studentListSchema) } },
  add: { params: idParamsSchema, body: studentInputSchema, response: student },
  update: { params: idParamsSchema, body: studentUpdateSchema, response: student },
  archive: { params: idParamsSchema, body: studentArchiveSchema, response: student },
  /** Answers an .xlsx file (no response schema). */
  export: { params: idParamsSchema, produces: [XLSX_TYPE] },
  /** The body is multipart (field `file`, the .xlsx roster), read in the handler. */
  import: {
    params: idParamsSchema,
    consumes: ['multipart/form-data'],
    response: { 200: envelopeSchema(rosterImportResultSchema) },
  },
  /** Answers an .xlsx file (no response schema). */
  template: { produces: [XLSX_TYPE] },
};

export default async function studentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { students } = app.papers;

  app.get('/classes/:id/students', { ...authenticated, schema: schemas.list }, async (request) => {
    const { id } = request.params;
    return ok(await students.list(requireAuth(request).userId, id, request.query.archived === 'true'));
  });

  app.post('/classes/:id/students', { ...authenticated, schema: schemas.add }, async (request) => {
    const { id } = request.params;
    return ok(await students.add(requireAuth(request).userId, id, request.body));
  });

  app.put('/students/:id', { ...authenticated, schema: schemas.update }, async (request) => {
    const { id } = request.params;
    return ok(await students.update(requireAuth(request).userId, id, request.body));
  });

  app.post('/students/:id/archive', { ...authenticated, schema: schemas.archive }, async (request) => {
    const { id } = request.params;
    return ok(await students.archive(requireAuth(request).userId, id, request.body.archived));
  });

  app.get('/classes/:id/students/export', { ...authenticated, schema: schemas.export }, async (request, reply) => {
    const { id } = request.params;
    const { file, fileName } = await students.exportRoster(requireAuth(request).userId, id);
    return reply.type(XLSX_TYPE).header('content-disposition', attachment(fileName)).send(file);
  });

  app.post('/classes/:id/students/import', { ...authenticated, schema: schemas.import }, async (request) => {
    const { id } = request.params;
    if (!request.isMultipart()) throw ApiError.badRequest('请上传花名册文件');
    const file = await request.file({ limits: { fileSize: MAX_ROSTER_BYTES, files: 1 } });
    if (!file) throw ApiError.badRequest('请上传花名册文件');
    let buffer: Buffer;
    try {
      buffer = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        throw ApiError.badRequest(`花名册文件不能超过 ${MAX_ROSTER_BYTES / 1024 / 1024} MB`);
      }
      throw error;
    }
    return ok(await students.importRoster(requireAuth(request).userId, id, buffer));
  });

  app.get('/students/roster-template', { ...authenticated, schema: schemas.template }, async (_request, reply) => {
    return reply
      .type(XLSX_TYPE)
      .header('content-disposition', attachment('学生花名册模板.xlsx'))
      .send(await rosterTemplate());
  });
}
