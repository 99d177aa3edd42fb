import type { FastifyInstance } from 'fastify';
import type { Health } from '../../../src/shared/contract/health';
import { ok } from '../../plugins/envelope';
import { APP_VERSION } from '../../lib/version';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/health', async () => {
    const health: Health = {
      status: 'ok',
      database: app.database.kind,
      databaseVersion: await app.database.version(),
      version: APP_VERSION,
    };
    return ok(health);
  });
}
