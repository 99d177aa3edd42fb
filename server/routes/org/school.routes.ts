/** Schools, their settings and structure, staff and switching school: thin handlers over app.org. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  archiveSchema,
  createClassSchema,
  createSchoolSchema,
  createSchoolYearSchema,
  createSubjectSchema,
  createdSchema,
  memberListSchema,
  orgItemParamsSchema,
  promotionResultSchema,
  orgParamsSchema,
  renameSchema,
  schoolDetailSchema,
  schoolStructureSchema,
  switchSchoolSchema,
  updateMemberSchema,
  updateSchoolSchema,
} from '../../../src/shared/contract/org';
import { noBodySchema } from '../../../src/shared/contract/primitives';
import { rateLinesListSchema, rateLinesParamsSchema, rateLinesSchema } from '../../../src/shared/contract/rate-lines';
import { ApiError } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { LOGO_MAX_BYTES } from '../../services/org/school.service';

const user = { 200: envelopeSchema(currentUserSchema) };
const school = { 200: envelopeSchema(schoolDetailSchema) };
const created = { 200: envelopeSchema(createdSchema) };
const done = { 200: envelopeSchema(z.null()) };
const schemas = {
  create: { body: createSchoolSchema, response: user },
  switchSchool: { body: switchSchoolSchema, response: user },
  detail: { params: orgParamsSchema, response: school },
  update: { params: orgParamsSchema, body: updateSchoolSchema, response: school },
  /** The body is multipart (field `file`), read in the handler; only the answer is declared. */
  logo: { params: orgParamsSchema, consumes: ['multipart/form-data'], response: school },
  structure: { params: orgParamsSchema, response: { 200: envelopeSchema(schoolStructureSchema) } },
  createSchoolYear: { params: orgParamsSchema, body: createSchoolYearSchema, response: created },
  createClass: { params: orgItemParamsSchema, body: createClassSchema, response: created },
  renameClass: { params: orgItemParamsSchema, body: renameSchema, response: done },
  archiveClass: { params: orgItemParamsSchema, body: archiveSchema, response: done },
  promote: { params: orgItemParamsSchema, body: noBodySchema, response: { 200: envelopeSchema(promotionResultSchema) } },
  createSubject: { params: orgParamsSchema, body: createSubjectSchema, response: created },
  renameSubject: { params: orgItemParamsSchema, body: createSubjectSchema, response: done },
  archiveSubject: { params: orgItemParamsSchema, body: archiveSchema, response: done },
  members: { params: orgParamsSchema, response: { 200: envelopeSchema(memberListSchema) } },
  updateMember: { params: orgItemParamsSchema, body: updateMemberSchema, response: done },
  removeMember: { params: orgItemParamsSchema, response: done },
  leave: { params: orgParamsSchema, body: noBodySchema, response: user },
  rateLines: { params: orgParamsSchema, response: { 200: envelopeSchema(rateLinesListSchema) } },
  saveRateLines: { params: rateLinesParamsSchema, body: rateLinesSchema, response: { 200: envelopeSchema(rateLinesListSchema) } },
  removeRateLines: { params: rateLinesParamsSchema, response: { 200: envelopeSchema(rateLinesListSchema) } },
};

export default async function schoolRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { schools, members, rateLines } = app.org;

  app.get('/org/schools/:orgId/rate-lines', { ...authenticated, schema: schemas.rateLines }, async (request) => {
    const { orgId } = request.params;
    return ok(await rateLines.list(requireAuth(request).userId, orgId));
  });

  app.put(
    '/org/schools/:orgId/rate-lines/:schoolYearId/:subjectId',
    { ...authenticated, schema: schemas.saveRateLines },
    async (request) => {
      const { orgId, schoolYearId, subjectId } = request.params;
      return ok(await rateLines.save(requireAuth(request).userId, orgId, schoolYearId, subjectId, request.body));
    },
  );

  app.delete(
    '/org/schools/:orgId/rate-lines/:schoolYearId/:subjectId',
    { ...authenticated, schema: schemas.removeRateLines },
    async (request) => {
      const { orgId, schoolYearId, subjectId } = request.params;
      return ok(await rateLines.remove(requireAuth(request).userId, orgId, schoolYearId, subjectId));
    },
  );

  app.post('/org/schools', { ...authenticated, schema: schemas.create }, async (request) => {
    const input = request.body;
    return ok(await schools.create(requireAuth(request).userId, input));
  });

  app.put('/org/default', { ...authenticated, schema: schemas.switchSchool }, async (request) => {
    const { orgId } = request.body;
    return ok(await schools.switchSchool(requireAuth(request).userId, orgId));
  });

  app.get('/org/schools/:orgId', { ...authenticated, schema: schemas.detail }, async (request) => {
    const { orgId } = request.params;
    return ok(await schools.detail(requireAuth(request).userId, orgId));
  });

  app.put('/org/schools/:orgId', { ...authenticated, schema: schemas.update }, async (request) => {
    const { orgId } = request.params;
    const input = request.body;
    return ok(await schools.update(requireAuth(request).userId, orgId, input));
  });

  app.post('/org/schools/:orgId/logo', { ...authenticated, schema: schemas.logo }, async (request) => {
    const { orgId } = request.params;
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

  app.get('/org/schools/:orgId/structure', { ...authenticated, schema: schemas.structure }, async (request) => {
    const { orgId } = request.params;
    return ok(await schools.structure(requireAuth(request).userId, orgId));
  });

  app.post('/org/schools/:orgId/school-years', { ...authenticated, schema: schemas.createSchoolYear }, async (request) => {
    const { orgId } = request.params;
    const input = request.body;
    return ok(await schools.createSchoolYear(requireAuth(request).userId, orgId, input));
  });

  app.post('/org/schools/:orgId/school-years/:id/classes', { ...authenticated, schema: schemas.createClass }, async (request) => {
    const { orgId, id } = request.params;
    const { name } = request.body;
    return ok(await schools.createClass(requireAuth(request).userId, orgId, id, name));
  });

  app.put('/org/schools/:orgId/classes/:id', { ...authenticated, schema: schemas.renameClass }, async (request) => {
    const { orgId, id } = request.params;
    const { name } = request.body;
    return ok(await schools.renameClass(requireAuth(request).userId, orgId, id, name));
  });

  app.post('/org/schools/:orgId/school-years/:id/promote', { ...authenticated, schema: schemas.promote }, async (request) => {
    const { orgId, id } = request.params;
    return ok(await schools.promoteSchoolYear(requireAuth(request).userId, orgId, id));
  });

  app.post('/org/schools/:orgId/classes/:id/archive', { ...authenticated, schema: schemas.archiveClass }, async (request) => {
    const { orgId, id } = request.params;
    const { archived } = request.body;
    return ok(await schools.archiveClass(requireAuth(request).userId, orgId, id, archived));
  });

  app.post('/org/schools/:orgId/subjects', { ...authenticated, schema: schemas.createSubject }, async (request) => {
    const { orgId } = request.params;
    const { name } = request.body;
    return ok(await schools.createSubject(requireAuth(request).userId, orgId, name));
  });

  app.put('/org/schools/:orgId/subjects/:id', { ...authenticated, schema: schemas.renameSubject }, async (request) => {
    const { orgId, id } = request.params;
    const { name } = request.body;
    return ok(await schools.renameSubject(requireAuth(request).userId, orgId, id, name));
  });

  app.post('/org/schools/:orgId/subjects/:id/archive', { ...authenticated, schema: schemas.archiveSubject }, async (request) => {
    const { orgId, id } = request.params;
    const { archived } = request.body;
    return ok(await schools.archiveSubject(requireAuth(request).userId, orgId, id, archived));
  });

  app.get('/org/schools/:orgId/members', { ...authenticated, schema: schemas.members }, async (request) => {
    const { orgId } = request.params;
    return ok(await members.list(requireAuth(request).userId, orgId));
  });

  app.put('/org/schools/:orgId/members/:id', { ...authenticated, schema: schemas.updateMember }, async (request) => {
    const { orgId, id } = request.params;
    const input = request.body;
    return ok(await members.update(requireAuth(request).userId, orgId, id, input));
  });

  app.delete('/org/schools/:orgId/members/:id', { ...authenticated, schema: schemas.removeMember }, async (request) => {
    const { orgId, id } = request.params;
    return ok(await members.remove(requireAuth(request).userId, orgId, id));
  });

  app.post('/org/schools/:orgId/leave', { ...authenticated, schema: schemas.leave }, async (request) => {
    const { orgId } = request.params;
    return ok(await members.leave(requireAuth(request).userId, orgId));
  });
}
