/** Schools, their settings and structure, staff and switching school: thin handlers over app.org. */
import type { FastifyInstance } from 'fastify';
import {
  archiveSchema,
  createClassSchema,
  createSchoolSchema,
  createSchoolYearSchema,
  createSubjectSchema,
  orgItemParamsSchema,
  orgParamsSchema,
  renameSchema,
  switchSchoolSchema,
  updateMemberSchema,
  updateSchoolSchema,
} from '../../../src/shared/contract/org';
import { ApiError, parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { LOGO_MAX_BYTES } from '../../services/org/school.service';

export default async function schoolRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { schools, members } = app.org;

  app.post('/org/schools', authenticated, async (request) => {
    const input = parseInput(createSchoolSchema, request.body);
    return ok(await schools.create(requireAuth(request).userId, input));
  });

  app.put('/org/default', authenticated, async (request) => {
    const { orgId } = parseInput(switchSchoolSchema, request.body);
    return ok(await schools.switchSchool(requireAuth(request).userId, orgId));
  });

  app.get('/org/schools/:orgId', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    return ok(await schools.detail(requireAuth(request).userId, orgId));
  });

  app.put('/org/schools/:orgId', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    const input = parseInput(updateSchoolSchema, request.body);
    return ok(await schools.update(requireAuth(request).userId, orgId, input));
  });

  app.post('/org/schools/:orgId/logo', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    const { userId } = requireAuth(request);
    if (!request.isMultipart()) throw ApiError.badRequest('请选择要上传的校徽图片');
    const file = await request.file({ limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1 } });
    if (!file) throw ApiError.badRequest('请选择要上传的校徽图片');
    let data: Buffer;
    try {
      data = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw ApiError.badRequest('校徽图片不能超过 2 MB');
      throw error;
    }
    return ok(await schools.saveLogo(userId, orgId, data));
  });

  app.get('/org/schools/:orgId/structure', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    return ok(await schools.structure(requireAuth(request).userId, orgId));
  });

  app.post('/org/schools/:orgId/school-years', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    const input = parseInput(createSchoolYearSchema, request.body);
    return ok(await schools.createSchoolYear(requireAuth(request).userId, orgId, input));
  });

  app.post('/org/schools/:orgId/school-years/:id/classes', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    const { name } = parseInput(createClassSchema, request.body);
    return ok(await schools.createClass(requireAuth(request).userId, orgId, id, name));
  });

  app.put('/org/schools/:orgId/classes/:id', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    const { name } = parseInput(renameSchema, request.body);
    return ok(await schools.renameClass(requireAuth(request).userId, orgId, id, name));
  });

  app.post('/org/schools/:orgId/classes/:id/archive', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    const { archived } = parseInput(archiveSchema, request.body);
    return ok(await schools.archiveClass(requireAuth(request).userId, orgId, id, archived));
  });

  app.post('/org/schools/:orgId/subjects', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    const { name } = parseInput(createSubjectSchema, request.body);
    return ok(await schools.createSubject(requireAuth(request).userId, orgId, name));
  });

  app.put('/org/schools/:orgId/subjects/:id', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    const { name } = parseInput(createSubjectSchema, request.body);
    return ok(await schools.renameSubject(requireAuth(request).userId, orgId, id, name));
  });

  app.post('/org/schools/:orgId/subjects/:id/archive', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    const { archived } = parseInput(archiveSchema, request.body);
    return ok(await schools.archiveSubject(requireAuth(request).userId, orgId, id, archived));
  });

  app.get('/org/schools/:orgId/members', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    return ok(await members.list(requireAuth(request).userId, orgId));
  });

  app.put('/org/schools/:orgId/members/:id', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    const input = parseInput(updateMemberSchema, request.body);
    return ok(await members.update(requireAuth(request).userId, orgId, id, input));
  });

  app.delete('/org/schools/:orgId/members/:id', authenticated, async (request) => {
    const { orgId, id } = parseInput(orgItemParamsSchema, request.params);
    return ok(await members.remove(requireAuth(request).userId, orgId, id));
  });

  app.post('/org/schools/:orgId/leave', authenticated, async (request) => {
    const { orgId } = parseInput(orgParamsSchema, request.params);
    return ok(await members.leave(requireAuth(request).userId, orgId));
  });
}
