import type { FastifyInstance } from 'fastify';
import { ApiError, parseInput } from '../../lib/api-error';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { rosterTemplate } from '../../services/papers/student.service';
import { idParamsSchema } from './question-bank.routes';

/** A roster file is a few hundred kilobytes at most. */
const MAX_ROSTER_BYTES = 5 * 1024 * 1024;

export default async function studentRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { students } = app.papers;

  app.get('/classes/:id/students', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await students.list(requireAuth(request).userId, id));
  });

  app.post('/classes/:id/students/import', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
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

  app.get('/students/roster-template', authenticated, async (_request, reply) => {
    return reply
      .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', attachment('学生花名册模板.xlsx'))
      .send(await rosterTemplate());
  });
}
