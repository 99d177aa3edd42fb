import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { captchaSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

const schema = { response: { 200: envelopeSchema(captchaSchema) } };

export default async function captchaRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/captcha', { config: { rateLimit: options.rateLimit }, schema }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return ok(await app.accounts.captchas.create());
  });
}
