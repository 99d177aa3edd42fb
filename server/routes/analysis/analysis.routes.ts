/**
 * Learning analysis endpoints (学情分析, 作业助手, 数据中心, 大数据). Thin: validate, call the analysis
 * service with the session's user (the scope is never taken from the request), answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  analysisOptionsSchema,
  analysisOverviewSchema,
  averageScoreSchema,
  bigDataSchema,
  classFilterSchema,
  classRosterQuerySchema,
  classRosterSchema,
  correctScoreSchema,
  dataCenterFilterSchema,
  gradeFilterSchema,
  homeworkAnalysisParamsSchema,
  homeworkAnalysisQuerySchema,
  homeworkAnalysisSchema,
  homeworkViewQuerySchema,
  personAnalysisSchema,
  personFilterSchema,
  rankSettingSchema,
  subjectStatsSchema,
} from '../../../src/shared/contract/analysis';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { createAnalysisService } from '../../services/analysis/analysis.service';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const overview = { 200: envelopeSchema(analysisOverviewSchema) };
const schemas = {
  options: { response: { 200: envelopeSchema(analysisOptionsSchema) } },
  grade: { querystring: gradeFilterSchema, response: overview },
  klass: { querystring: classFilterSchema, response: overview },
  roster: { querystring: classRosterQuerySchema, response: { 200: envelopeSchema(classRosterSchema) } },
  person: { querystring: personFilterSchema, response: { 200: envelopeSchema(personAnalysisSchema) } },
  homework: {
    params: homeworkAnalysisParamsSchema,
    querystring: homeworkViewQuerySchema,
    response: { 200: envelopeSchema(homeworkAnalysisSchema) },
  },
  subjectStats: { querystring: dataCenterFilterSchema, response: { 200: envelopeSchema(subjectStatsSchema) } },
  correctScore: { querystring: dataCenterFilterSchema, response: { 200: envelopeSchema(correctScoreSchema) } },
  averageScore: { querystring: dataCenterFilterSchema, response: { 200: envelopeSchema(averageScoreSchema) } },
  bigData: { response: { 200: envelopeSchema(bigDataSchema) } },
  rankSetting: { body: rankSettingSchema, response: { 200: envelopeSchema(z.null()) } },
  reportDocx: { params: homeworkAnalysisParamsSchema, querystring: homeworkAnalysisQuerySchema, produces: [DOCX_TYPE] },
};

export default async function analysisRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const analysis = createAnalysisService({ db: app.database.db });
  const user = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

  app.get('/analysis/options', { ...authenticated, schema: schemas.options }, async (request) =>
    ok(await analysis.options(user(request))),
  );

  app.get('/analysis/grade', { ...authenticated, schema: schemas.grade }, async (request) => {
    const filter = request.query;
    return ok(await analysis.grade(user(request), filter));
  });

  app.get('/analysis/class', { ...authenticated, schema: schemas.klass }, async (request) => {
    const filter = request.query;
    return ok(await analysis.klass(user(request), filter));
  });

  // 学生学情's student picker: the class's students only (the class view's scope, none of its figures).
  app.get('/analysis/class/students', { ...authenticated, schema: schemas.roster }, async (request) => {
    const query = request.query;
    return ok(await analysis.classRoster(user(request), query));
  });

  app.get('/analysis/person', { ...authenticated, schema: schemas.person }, async (request) => {
    const filter = request.query;
    return ok(await analysis.person(user(request), filter));
  });

  app.get('/analysis/homework/:id', { ...authenticated, schema: schemas.homework }, async (request) => {
    const { id } = request.params;
    const { classId, projection } = request.query;
    return ok(await analysis.homework(user(request), id, classId, projection));
  });

  app.get('/analysis/data-center/subject', { ...authenticated, schema: schemas.subjectStats }, async (request) => {
    const filter = request.query;
    return ok(await analysis.subjectStats(user(request), filter));
  });

  app.get('/analysis/data-center/correct-score', { ...authenticated, schema: schemas.correctScore }, async (request) => {
    const filter = request.query;
    return ok(await analysis.correctScore(user(request), filter));
  });

  app.get('/analysis/data-center/average-score', { ...authenticated, schema: schemas.averageScore }, async (request) => {
    const filter = request.query;
    return ok(await analysis.averageScore(user(request), filter));
  });

  // 作业报告 as Word: a raw file, not the envelope; failures still answer with the envelope.
  app.get('/analysis/homework/:id/docx', { ...authenticated, schema: schemas.reportDocx }, async (request, reply) => {
    const { title, file } = await analysis.homeworkReportDocx(user(request), request.params.id, request.query.classId);
    return reply
      .type(DOCX_TYPE)
      .header('content-disposition', attachment(`${title}-作业报告.docx`))
      .send(file);
  });

  // School settings: who may see ranks per school year (the school's managers only).
  app.put('/analysis/rank-settings', { ...authenticated, schema: schemas.rankSetting }, async (request) => {
    await analysis.setRanks(user(request), request.body);
    return ok(null);
  });

  app.get('/analysis/big-data', { ...authenticated, schema: schemas.bigData }, async (request) =>
    ok(await analysis.bigData(user(request))),
  );
}
