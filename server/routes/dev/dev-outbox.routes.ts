import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/envelope';

/** Registered only outside production (see app.ts). */
export default async function devOutboxRoutes(app: FastifyInstance) {
  app.get('/dev/outbox', async () => ok(app.accounts.outbox.snapshot()));
}
