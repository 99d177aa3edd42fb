import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { type Health, healthSchema } from '../../../src/shared/contract/health';
import { ok } from '../../plugins/envelope';
import { APP_VERSION } from '../../lib/version';

export default async function healthRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/health', { schema: { response: { 200: envelopeSchema(healthSchema) } } }, async () => {
    const health: Health = {
      status: 'ok',
      database: app.database.kind,
      databaseVersion: await app.database.version(),
      version: APP_VERSION,
    };
    return ok(health);
  });
}
