/**
 * Envelope plugin: turns every error into the spec's `{ code, msg, data }` envelope with a matching HTTP
 * status, and answers unknown `/api/...` paths with a JSON 404. Owns error mapping; it does not serve the
 * client (see client.ts, which handles the non-API 404s).
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES, SUCCESS_CODE, type Envelope } from '../../src/shared/contract/envelope';
import { ApiError } from '../lib/api-error';

export function ok<T>(data: T, msg: string = MESSAGES.ok): Envelope<T> {
  return { code: SUCCESS_CODE, msg, data };
}

export function fail(status: number, msg: string): Envelope<null> {
  return { code: status, msg, data: null };
}

export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

async function envelopePlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.status).send(fail(error.status, error.message));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send(fail(500, MESSAGES.internal));
    }
    // Fastify's own 4xx (malformed JSON, body too large, unsupported media type, rate limit...).
    const msg = status === 429 ? '操作过于频繁，请稍后再试' : status === 413 ? '上传内容过大' : `请求格式错误：${error.message}`;
    return reply.status(status).send(fail(status, msg));
  });
}

export default fp(envelopePlugin, { name: 'envelope' });

export function sendApiNotFound(reply: FastifyReply) {
  return reply.status(404).send(fail(404, MESSAGES.notFound));
}
