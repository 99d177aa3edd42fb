import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

export default async function captchaRoutes(app: FastifyInstance, options: RateLimitedRouteOptions) {
  app.get('/captcha', { config: { rateLimit: options.rateLimit } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await app.accounts.captchas.create());
  });
}
