import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  SCAN_MESSAGES,
  SCAN_PAGE_MAX_BYTES,
  scanBatchCreateSchema,
  scanBatchListQuerySchema,
  scanBatchListSchema,
  scanBatchParamsSchema,
  scanBatchSchema,
  scanPageFieldsSchema,
  scanPageImageParamsSchema,
  scanPageStoredSchema,
} from '../../../src/shared/contract/scan-upload';
import { unscannedStudentsSchema } from '../../../src/shared/contract/scan';
import { ApiError, parseInput } from '../../lib/api-error';
import { IMAGE_LIMIT_MESSAGES, scanPageSizeProblem } from '../../lib/image-limits';
import { isJpeg } from '../../services/scan/scan.service';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';

/** Room for the file and the text fields around it. */
const PAGE_BODY_LIMIT = SCAN_PAGE_MAX_BYTES + 64 * 1024;

const batch = { 200: envelopeSchema(scanBatchSchema) };
const schemas = {
  createBatch: { body: scanBatchCreateSchema, response: batch },
  listBatches: { querystring: scanBatchListQuerySchema, response: { 200: envelopeSchema(scanBatchListSchema) } },
  batch: { params: scanBatchParamsSchema, response: batch },
  unscannedStudents: { params: scanBatchParamsSchema, response: { 200: envelopeSchema(unscannedStudentsSchema) } },
  /** The body is multipart: the fields of scanPageFieldsSchema, then `file`; parsed in the handler. */
  storePage: { consumes: ['multipart/form-data'], response: { 200: envelopeSchema(scanPageStoredSchema) } },
  /** Answers a JPEG (no response schema), or the envelope on failure. */
  pageImage: { params: scanPageImageParamsSchema, produces: ['image/jpeg'] },
};

export default async function scanRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const scan = app.scan.service;

  app.post('/scan/batches', { ...authenticated, schema: schemas.createBatch }, async (request) => {
    const input = request.body;
    return ok(await scan.createBatch(requireAuth(request).userId, input));
  });

  app.get('/scan/batches', { ...authenticated, schema: schemas.listBatches }, async (request) => {
    const query = request.query;
    return ok(await scan.listBatches(requireAuth(request).userId, query));
  });

  app.get('/scan/homework/:id/unscanned-students', { ...authenticated, schema: schemas.unscannedStudents }, async (request) => {
    const { id } = request.params;
    return ok(await scan.unscannedStudents(requireAuth(request).userId, id));
  });

  app.get('/scan/batches/:id', { ...authenticated, schema: schemas.batch }, async (request) => {
    const { id } = request.params;
    return ok(await scan.getBatch(requireAuth(request).userId, id));
  });

  const storePage = { preHandler: app.authenticate, bodyLimit: PAGE_BODY_LIMIT, schema: schemas.storePage };
  app.post('/scan/pages', storePage, async (request) => {
    const { userId } = requireAuth(request);
    if (!request.isMultipart()) throw ApiError.badRequest(SCAN_MESSAGES.missingFile);
    const fields: Record<string, string> = {};
    let data: Buffer | null = null;
    try {
      for await (const part of request.parts({ limits: { fileSize: SCAN_PAGE_MAX_BYTES, files: 1, fields: 20 } })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            await part.toBuffer();
            continue;
          }
          data = await part.toBuffer();
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw ApiError.badRequest(SCAN_MESSAGES.tooLarge);
      if (code === 'FST_FILES_LIMIT') throw ApiError.badRequest(IMAGE_LIMIT_MESSAGES.oneFile);
      throw error;
    }
    const input = parseInput(scanPageFieldsSchema, fields);
    if (!data || data.length === 0) throw ApiError.badRequest(SCAN_MESSAGES.missingFile);
    // Dimensions from the header, before the page is stored or anything decodes it.
    const sizeProblem = isJpeg(data) ? await scanPageSizeProblem(data) : null;
    if (sizeProblem) throw ApiError.badRequest(sizeProblem);
    return ok(await scan.storePage(userId, input, data));
  });

  app.get('/scan/pages/:imageId/image', { ...authenticated, schema: schemas.pageImage }, async (request, reply) => {
    const { imageId } = request.params;
    const image = await scan.readPageImage(requireAuth(request).userId, imageId);
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=31536000, immutable').send(image);
  });
}
