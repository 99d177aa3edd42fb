/**
 * Review endpoints (识别异常处理): a homework's review items, resolving one, and the reading of a scanned
 * page. Thin: validate, call app.marking.review, answer.
 */
import type { FastifyInstance } from 'fastify';
import {
  homeworkParamsSchema,
  itemParamsSchema,
  reviewListQuerySchema,
  reviewResolutionSchema,
} from '../../../src/shared/contract/marking';
import { scanPageImageParamsSchema } from '../../../src/shared/contract/scan-upload';
import { parseInput } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

export default async function reviewRoutes(app: FastifyInstance) {
  const authenticated = { preHandler: app.authenticate };
  const { review } = app.marking;

  app.get('/marking/homework/:id/review', authenticated, async (request) => {
    const { id } = parseInput(homeworkParamsSchema, request.params);
    const { status } = parseInput(reviewListQuerySchema, request.query);
    return ok(await review.list(requireAuth(request).userId, id, status));
  });

  app.post('/marking/review/:itemId/resolve', authenticated, async (request) => {
    const { itemId } = parseInput(itemParamsSchema, request.params);
    const input = parseInput(reviewResolutionSchema, request.body);
    return ok(await review.resolve(requireAuth(request).userId, itemId, input));
  });

  app.get('/marking/pages/:imageId/reading', authenticated, async (request) => {
    const { imageId } = parseInput(scanPageImageParamsSchema, request.params);
    return ok(await review.pageReading(requireAuth(request).userId, imageId));
  });
}
