import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { devOutboxSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { ApiError } from '../../lib/api-error';
import { ok } from '../../plugins/envelope';

/** 127.0.0.0/8, ::1 and the IPv4-mapped IPv6 form of loopback. */
export function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

const schema = { response: { 200: envelopeSchema(devOutboxSchema) } };

/**
 * Registered only with DEV_OUTBOX=true outside production (see app.ts), and even then answers callers on
 * this machine only: anyone else gets the same 404 as when it is off.
 */
export default async function devOutboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/dev/outbox', { schema }, async (request) => {
    if (!isLoopback(request.socket.remoteAddress ?? '')) throw ApiError.notFound();
    return ok(app.accounts.outbox.snapshot());
  });
}
