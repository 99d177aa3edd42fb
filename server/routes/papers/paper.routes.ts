import type { FastifyInstance } from 'fastify';
import {
  MAX_DOCX_QUESTIONS,
  autoComposeRequestSchema,
  docxRequestSchema,
  paperInputSchema,
  paperListQuerySchema,
} from '../../../src/shared/contract/papers';
import { MESSAGES } from '../../../src/shared/contract/envelope';
import { ApiError, parseInput } from '../../lib/api-error';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { renderPaperDocx } from '../../services/papers/paper-docx';
import { storedImageLoader } from '../../services/papers/stored-image';
import { idParamsSchema } from './question-bank.routes';

export type PaperRouteOptions = {
  maxDocxQuestions?: number;
  /** Where stored images are served (IMAGE_BASE_URL); the Word export embeds those it finds. */
  imageBaseUrl?: string;
};

export default async function paperRoutes(app: FastifyInstance, options: PaperRouteOptions) {
  const authenticated = { preHandler: app.authenticate };
  const { papers } = app.papers;
  const maxDocxQuestions = options.maxDocxQuestions ?? MAX_DOCX_QUESTIONS;
  const loadImage = storedImageLoader(app.filesDir, options.imageBaseUrl ?? '/files/');

  app.get('/papers', authenticated, async (request) => {
    const query = parseInput(paperListQuerySchema, request.query);
    return ok(await papers.list(requireAuth(request).userId, query));
  });

  app.post('/papers', authenticated, async (request) => {
    const input = parseInput(paperInputSchema, request.body);
    return ok(await papers.create(requireAuth(request).userId, input));
  });

  app.post('/papers/auto-compose', authenticated, async (request) => {
    const input = parseInput(autoComposeRequestSchema, request.body);
    return ok(await papers.autoCompose(requireAuth(request).userId, input));
  });

  app.get('/papers/:id', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await papers.detail(requireAuth(request).userId, id));
  });

  app.put('/papers/:id', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    const input = parseInput(paperInputSchema, request.body);
    return ok(await papers.update(requireAuth(request).userId, id, input));
  });

  // Colleagues read and copy each other's papers; only the owner and admins change them.
  app.post('/papers/:id/copy', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await papers.copy(requireAuth(request).userId, id));
  });

  app.delete('/papers/:id', authenticated, async (request) => {
    const { id } = parseInput(idParamsSchema, request.params);
    return ok(await papers.remove(requireAuth(request).userId, id));
  });

  // A raw file, not the envelope; failures still answer with the envelope.
  app.post('/papers/:id/docx', authenticated, async (request, reply) => {
    const { id } = parseInput(idParamsSchema, request.params);
    const { withAnswers } = parseInput(docxRequestSchema, request.body);
    const paper = await papers.detail(requireAuth(request).userId, id);
    if (paper.questionCount > maxDocxQuestions) throw ApiError.badRequest(MESSAGES.downloadFailed);
    const file = await renderPaperDocx(paper, { withAnswers: withAnswers ?? false, loadImage });
    return reply
      .type('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
      .header('content-disposition', attachment(`${paper.title}.docx`))
      .send(file);
  });
}
