/**
 * Learning analysis endpoints (学情分析, 作业助手, 数据中心, 大数据). Thin: validate, call the analysis
 * service with the session's user (the scope is never taken from the request), answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  analysisOptionsSchema,
  analysisOverviewSchema,
  averageScoreSchema,
  bigDataSchema,
  classFilterSchema,
  correctScoreSchema,
  dataCenterFilterSchema,
  gradeFilterSchema,
  homeworkAnalysisParamsSchema,
  homeworkAnalysisQuerySchema,
  homeworkAnalysisSchema,
  personAnalysisSchema,
  personFilterSchema,
  subjectStatsSchema,
} from '../../../src/shared/contract/analysis';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { createAnalysisService } from '../../services/analysis/analysis.service';

const overview = { 200: envelopeSchema(analysisOverviewSchema) };
const schemas = {
  options: { response: { 200: envelopeSchema(analysisOptionsSchema) } },
  grade: { querystring: gradeFilterSchema, response: overview },
  klass: { querystring: classFilterSchema, response: overview },
  person: { querystring: personFilterSchema, response: { 200: envelopeSchema(personAnalysisSchema) } },
  homework: {
    params: homeworkAnalysisParamsSchema,
    querystring: homeworkAnalysisQuerySchema,
    response: { 200: envelopeSchema(homeworkAnalysisSchema) },
  },
  subjectStats: { querystring: dataCenterFilterSchema, response: { 200: envelopeSchema(subjectStatsSchema) } },
  correctScore: { querystring: dataCenterFilterSchema, response: { 200: envelopeSchema(correctScoreSchema) } },
  averageScore: { querystring: dataCenterFilterSchema, response: { 200: envelopeSchema(averageScoreSchema) } },
  bigData: { response: { 200: envelopeSchema(bigDataSchema) } },
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

  app.get('/analysis/person', { ...authenticated, schema: schemas.person }, async (request) => {
    const filter = request.query;
    return ok(await analysis.person(user(request), filter));
  });

  app.get('/analysis/homework/:id', { ...authenticated, schema: schemas.homework }, async (request) => {
    const { id } = request.params;
    const { classId } = request.query;
    return ok(await analysis.homework(user(request), id, classId));
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

  app.get('/analysis/big-data', { ...authenticated, schema: schemas.bigData }, async (request) =>
    ok(await analysis.bigData(user(request))),
  );
}
