/**
 * Pictures of 本校题 (question-images contract): upload for the caller's school, read and delete for its
 * members. Thin: the service checks membership, format and size.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  QUESTION_IMAGE_MAX_BYTES,
  QUESTION_IMAGE_MESSAGES,
  questionImageParamsSchema,
  questionImageSchema,
} from '../../../src/shared/contract/question-images';
import { ApiError } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { createQuestionImageService } from '../../services/papers/question-image.service';

const schemas = {
  /** The body is multipart (field `file`), read in the handler; only the answer is declared. */
  upload: { consumes: ['multipart/form-data'], response: { 200: envelopeSchema(questionImageSchema) } },
  /** Answers the image's bytes (no response schema), or the envelope on failure. */
  read: { params: questionImageParamsSchema, produces: ['image/png', 'image/jpeg', 'image/webp'] },
  remove: { params: questionImageParamsSchema, response: { 200: envelopeSchema(z.null()) } },
};

export default async function questionImageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const images = createQuestionImageService({ db: app.database.db, storage: app.storage });

  app.post('/question-images', { ...authenticated, schema: schemas.upload }, async (request) => {
    const { userId } = requireAuth(request);
    if (!request.isMultipart()) throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.missing);
    // One byte over the limit is enough to know the file is too large.
    const file = await request.file({ limits: { fileSize: QUESTION_IMAGE_MAX_BYTES + 1, files: 1 } });
    if (!file || file.fieldname !== 'file') throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.missing);
    let data: Buffer;
    try {
      data = await file.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        throw ApiError.badRequest(QUESTION_IMAGE_MESSAGES.tooLarge);
      throw error;
    }
    return ok(await images.upload(userId, data));
  });

  app.get('/question-images/:orgId/:name', { ...authenticated, schema: schemas.read }, async (request, reply) => {
    const { orgId, name } = request.params;
    const image = await images.read(requireAuth(request).userId, orgId, name);
    // The API's default (no-store) stands: the browser must not hand one school's picture to the next user.
    return reply.type(image.contentType).send(image.data);
  });

  app.delete('/question-images/:orgId/:name', { ...authenticated, schema: schemas.remove }, async (request) => {
    const { orgId, name } = request.params;
    return ok(await images.remove(requireAuth(request).userId, orgId, name));
  });
}
