/**
 * Learning analysis endpoints (学情分析, 作业助手, 数据中心, 大数据). Thin: validate, call the analysis
 * service with the session's user (the scope is never taken from the request), answer.
 */
import type { FastifyInstance } from 'fastify';
import {
  classFilterSchema,
  dataCenterFilterSchema,
  gradeFilterSchema,
  homeworkAnalysisParamsSchema,
  homeworkAnalysisQuerySchema,
  personFilterSchema,
} from '../../../src/shared/contract/analysis';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { createAnalysisService } from '../../services/analysis/analysis.service';

export default async function analysisRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const analysis = createAnalysisService({ db: app.database.db });
  const user = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).userId;

  app.get('/analysis/options', authenticated, async (request) => ok(await analysis.options(user(request))));

  app.get('/analysis/grade', authenticated, async (request) => {
    const filter = parseInput(gradeFilterSchema, request.query);
    return ok(await analysis.grade(user(request), filter));
  });

  app.get('/analysis/class', authenticated, async (request) => {
    const filter = parseInput(classFilterSchema, request.query);
    return ok(await analysis.klass(user(request), filter));
  });

  app.get('/analysis/person', authenticated, async (request) => {
    const filter = parseInput(personFilterSchema, request.query);
    return ok(await analysis.person(user(request), filter));
  });

  app.get('/analysis/homework/:id', authenticated, async (request) => {
    const { id } = parseInput(homeworkAnalysisParamsSchema, request.params);
    const { classId } = parseInput(homeworkAnalysisQuerySchema, request.query);
    return ok(await analysis.homework(user(request), id, classId));
  });

  app.get('/analysis/data-center/subject', authenticated, async (request) => {
    const filter = parseInput(dataCenterFilterSchema, request.query);
    return ok(await analysis.subjectStats(user(request), filter));
  });

  app.get('/analysis/data-center/correct-score', authenticated, async (request) => {
    const filter = parseInput(dataCenterFilterSchema, request.query);
    return ok(await analysis.correctScore(user(request), filter));
  });

  app.get('/analysis/data-center/average-score', authenticated, async (request) => {
    const filter = parseInput(dataCenterFilterSchema, request.query);
    return ok(await analysis.averageScore(user(request), filter));
  });

  app.get('/analysis/big-data', authenticated, async (request) => ok(await analysis.bigData(user(request))));
}
