import type { FastifyInstance } from 'fastify';
import { smsCodeRequestSchema } from '../../../src/shared/contract/auth';
import { parseInput } from '../../lib/api-error';
import { ok } from '../../plugins/envelope';
import type { RateLimitedRouteOptions } from '../route-options';

export default async function smsRoutes(app: FastifyInstance, options: RateLimitedRouteOptions) {
  app.post('/sms/code', { config: { rateLimit: options.rateLimit } }, async (request) => {
    const { mobile, purpose } = parseInput(smsCodeRequestSchema, request.body);
    return ok(await app.accounts.sms.sendCode(mobile, purpose));
  });
}
