/**
 * 装订 endpoints: start a binding job, poll its progress, download its file. Thin: validate, call the
 * binding service (created here with the app's file storage and the score table), answer. The jobs are
 * rows of binding_jobs and their files are in the file storage, so any instance answers (see
 * binding.service.ts). Once the app is ready, and every BINDING_RESUME_MS until it closes, this instance
 * takes over the jobs whose instance stopped.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bindingJobCreateSchema, bindingJobParamsSchema, bindingJobSchema } from '../../../src/shared/contract/binding';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { attachment } from '../../lib/content-disposition';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { BINDING_RESUME_MS, createBindingService } from '../../services/binding/binding.service';

const schemas = {
  create: { body: bindingJobCreateSchema, response: { 200: envelopeSchema(bindingJobSchema) } },
  get: { params: bindingJobParamsSchema, response: { 200: envelopeSchema(bindingJobSchema) } },
  /** Answers the PDF or ZIP (no response schema), or the envelope on failure. */
  file: { params: bindingJobParamsSchema, produces: ['application/pdf', 'application/zip'] },
};

export default async function bindingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const binding = createBindingService({ db: app.database.db, storage: app.storage, scores: app.marking.scores });

  let resuming: ReturnType<typeof setInterval> | undefined;
  let closing = false;
  const resume = () => {
    if (closing) return;
    binding.resumeStale().catch((error: unknown) => app.log.warn({ err: error }, 'resuming stale binding jobs failed'));
  };
  app.addHook('onReady', async () => {
    resume();
    resuming = setInterval(resume, BINDING_RESUME_MS);
    resuming.unref();
  });
  app.addHook('onClose', async () => {
    closing = true;
    clearInterval(resuming);
  });

  app.post('/binding/jobs', { ...authenticated, schema: schemas.create }, async (request) => {
    return ok(await binding.create(requireAuth(request).userId, request.body));
  });

  app.get('/binding/jobs/:id', { ...authenticated, schema: schemas.get }, async (request) => {
    return ok(await binding.get(requireAuth(request).userId, request.params.id));
  });

  app.get('/binding/jobs/:id/file', { ...authenticated, schema: schemas.file }, async (request, reply) => {
    const { file, fileName, contentType } = await binding.file(requireAuth(request).userId, request.params.id);
    return reply.type(contentType).header('content-disposition', attachment(fileName)).send(file);
  });
}
