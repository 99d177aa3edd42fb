import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { devOutboxSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { ok } from '../../plugins/envelope';

/** Registered only outside production (see app.ts). */
const schema = { response: { 200: envelopeSchema(devOutboxSchema) } };

export default async function devOutboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/dev/outbox', { schema }, async () => ok(app.accounts.outbox.snapshot()));
}
