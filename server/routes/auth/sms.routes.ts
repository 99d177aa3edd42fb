import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { smsCodeRequestSchema, smsCodeResponseSchema } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

const schema = { body: smsCodeRequestSchema, response: { 200: envelopeSchema(smsCodeResponseSchema) } };

export default async function smsRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/sms/code', { config: { rateLimit: options.rateLimit }, schema }, async (request) => {
    const { mobile, purpose } = request.body;
    return ok(await app.accounts.sms.sendCode(mobile, purpose));
  });
}
