/**
 * Review endpoints (识别异常处理): a homework's review items, resolving one or several (批量), and the reading of a scanned
 * page. Thin: validate, call app.marking.review, answer.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  homeworkParamsSchema,
  itemParamsSchema,
  pageReadingViewSchema,
  reviewBulkResolutionSchema,
  reviewBulkResultSchema,
  reviewItemSchema,
  reviewListQuerySchema,
  reviewResolutionSchema,
} from '../../../src/shared/contract/marking';
import { scanPageImageParamsSchema } from '../../../src/shared/contract/scan-upload';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

const schemas = {
  list: {
    params: homeworkParamsSchema,
    querystring: reviewListQuerySchema,
    response: { 200: envelopeSchema(z.array(reviewItemSchema)) },
  },
  resolve: { params: itemParamsSchema, body: reviewResolutionSchema, response: { 200: envelopeSchema(reviewItemSchema) } },
  bulk: { body: reviewBulkResolutionSchema, response: { 200: envelopeSchema(reviewBulkResultSchema) } },
  reading: { params: scanPageImageParamsSchema, response: { 200: envelopeSchema(pageReadingViewSchema) } },
};

export default async function reviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { review } = app.marking;

  app.get('/marking/homework/:id/review', { ...authenticated, schema: schemas.list }, async (request) => {
    const { id } = request.params;
    const { status } = request.query;
    return ok(await review.list(requireAuth(request).userId, id, status));
  });

  app.post('/marking/review/:itemId/resolve', { ...authenticated, schema: schemas.resolve }, async (request) => {
    const { itemId } = request.params;
    const input = request.body;
    return ok(await review.resolve(requireAuth(request).userId, itemId, input));
  });

  app.post('/marking/review/bulk', { ...authenticated, schema: schemas.bulk }, async (request) => {
    return ok(await review.bulk(requireAuth(request).userId, request.body));
  });

  app.get('/marking/pages/:imageId/reading', { ...authenticated, schema: schemas.reading }, async (request) => {
    const { imageId } = request.params;
    return ok(await review.pageReading(requireAuth(request).userId, imageId));
  });
}
