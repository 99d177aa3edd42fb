import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/api-error';
import { ok } from '../../plugins/envelope';

/** 127.0.0.0/8, ::1 and the IPv4-mapped IPv6 form of loopback. */
export function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}

/**
 * Registered only with DEV_OUTBOX=true outside production (see app.ts), and even then answers callers on
 * this machine only: anyone else gets the same 404 as when it is off.
 */
export default async function devOutboxRoutes(app: FastifyInstance) {
  app.get('/dev/outbox', async (request) => {
    if (!isLoopback(request.socket.remoteAddress ?? '')) throw ApiError.notFound();
    return ok(app.accounts.outbox.snapshot());
  });
}
