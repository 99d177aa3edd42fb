import { materialListQuerySchema, materialPageSchema, shareRequestSchema } from '../../../src/shared/contract/materials';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_DOCX_QUESTIONS,
  autoComposeRequestSchema,
  docxRequestSchema,
  paperDetailSchema,
  paperDraftSchema,
  paperInputSchema,
  paperListQuerySchema,
  paperSummaryPageSchema,
  paperSummarySchema,
} from '../../../src/shared/contract/papers';
import { MESSAGES, envelopeSchema } from '../../../src/shared/contract/envelope';
import { ApiError } from '../../lib/api-error';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { renderPaperDocx } from '../../services/papers/paper-docx';
import { createQuestionImageService } from '../../services/papers/question-image.service';
import { storedImageLoader } from '../../services/papers/stored-image';
import { noBodySchema } from '../../../src/shared/contract/primitives';
import { idParamsSchema } from './question-bank.routes';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export type PaperRouteOptions = {
  maxDocxQuestions?: number;
  /** Where stored images are served (IMAGE_BASE_URL); the Word export embeds those it finds. */
  imageBaseUrl?: string;
};

const paper = { 200: envelopeSchema(paperDetailSchema) };
const schemas = {
  list: { querystring: paperListQuerySchema, response: { 200: envelopeSchema(paperSummaryPageSchema) } },
  create: { body: paperInputSchema, response: paper },
  copy: { params: idParamsSchema, body: noBodySchema, response: paper },
  autoCompose: { body: autoComposeRequestSchema, response: { 200: envelopeSchema(paperDraftSchema) } },
  detail: { params: idParamsSchema, response: paper },
  update: { params: idParamsSchema, body: paperInputSchema, response: paper },
  remove: { params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } },
  materials: { querystring: materialListQuerySchema, response: { 200: envelopeSchema(materialPageSchema) } },
  share: { params: idParamsSchema, body: shareRequestSchema, response: { 200: envelopeSchema(paperSummarySchema) } },
  unshare: { params: idParamsSchema, response: { 200: envelopeSchema(z.null()) } },
  /** Answers a .docx file (no response schema), or the envelope on failure. */
  docx: { params: idParamsSchema, body: docxRequestSchema, produces: [DOCX_TYPE] },
};

export default async function paperRoutes(fastify: FastifyInstance, options: PaperRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { papers } = app.papers;
  const maxDocxQuestions = options.maxDocxQuestions ?? MAX_DOCX_QUESTIONS;
  const loadStoredImage = storedImageLoader(app.storage, options.imageBaseUrl ?? '/files/');
  const questionImages = createQuestionImageService({ db: app.database.db, storage: app.storage });
  /** The bank's stored files, and the pictures of 本校题 of the caller's schools. */
  const imageLoaderFor = (userId: number) => async (src: string) =>
    (await questionImages.readForDocument(userId, src)) ?? loadStoredImage(src);

  app.get('/papers', { ...authenticated, schema: schemas.list }, async (request) => {
    const { query } = request;
    return ok(await papers.list(requireAuth(request).userId, query));
  });

  // 校本资料: the school's shared papers; the owner shares (or refiles) and withdraws, an admin removes.
  app.get('/school-materials', { ...authenticated, schema: schemas.materials }, async (request) => {
    const { query } = request;
    return ok(await papers.listShared(requireAuth(request).userId, query));
  });

  app.post('/papers/:id/share', { ...authenticated, schema: schemas.share }, async (request) => {
    const { id } = request.params;
    return ok(await papers.share(requireAuth(request).userId, id, request.body));
  });

  app.delete('/papers/:id/share', { ...authenticated, schema: schemas.unshare }, async (request) => {
    const { id } = request.params;
    return ok(await papers.unshare(requireAuth(request).userId, id));
  });

  app.post('/papers', { ...authenticated, schema: schemas.create }, async (request) => {
    const input = request.body;
    return ok(await papers.create(requireAuth(request).userId, input));
  });

  app.post('/papers/auto-compose', { ...authenticated, schema: schemas.autoCompose }, async (request) => {
    const input = request.body;
    return ok(await papers.autoCompose(requireAuth(request).userId, input));
  });

  app.get('/papers/:id', { ...authenticated, schema: schemas.detail }, async (request) => {
    const { id } = request.params;
    return ok(await papers.detail(requireAuth(request).userId, id));
  });

  app.put('/papers/:id', { ...authenticated, schema: schemas.update }, async (request) => {
    const { id } = request.params;
    const input = request.body;
    return ok(await papers.update(requireAuth(request).userId, id, input));
  });

  // Colleagues read and copy each other's papers; only the owner and admins change them.
  app.post('/papers/:id/copy', { ...authenticated, schema: schemas.copy }, async (request) => {
    const { id } = request.params;
    return ok(await papers.copy(requireAuth(request).userId, id));
  });

  app.delete('/papers/:id', { ...authenticated, schema: schemas.remove }, async (request) => {
    const { id } = request.params;
    return ok(await papers.remove(requireAuth(request).userId, id));
  });

  // A raw file, not the envelope; failures still answer with the envelope.
  app.post('/papers/:id/docx', { ...authenticated, schema: schemas.docx }, async (request, reply) => {
    const { id } = request.params;
    const { withAnswers } = request.body;
    const { userId } = requireAuth(request);
    const paper = await papers.detail(userId, id);
    if (paper.questionCount > maxDocxQuestions) throw ApiError.badRequest(MESSAGES.downloadFailed);
    const file = await renderPaperDocx(paper, { withAnswers: withAnswers ?? false, loadImage: imageLoaderFor(userId) });
    return reply
      .type(DOCX_TYPE)
      .header('content-disposition', attachment(`${paper.title}.docx`))
      .send(file);
  });
}
