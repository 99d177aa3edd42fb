/**
 * Envelope plugin: turns every error into the spec's `{ code, msg, data }` envelope with a matching HTTP
 * status, and answers unknown `/api/...` paths with a JSON 404. Owns error mapping; it does not serve the
 * client (see client.ts, which handles the non-API 404s).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifySerializerCompiler } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
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

/** A response that does not match its declared schema (a server bug, never the caller's fault). */
export class ResponseContractError extends Error {
  readonly statusCode = 500;
}

/**
 * The serializer compiler of the declared response schemas: the answer is parsed with its schema, so only
 * the declared fields leave the server (a stray column never leaks). A mismatch is a bug: `strict` (tests)
 * makes it a 500 so a test sees it; otherwise it is logged and the answer is sent as the handler made it,
 * so a client is never broken by a contract that lags behind.
 */
export function responseSerializerCompiler(options: {
  strict: boolean;
  onMismatch: (url: string, issues: z.core.$ZodIssue[]) => void;
}): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (data) => {
      // Through JSON first, so Dates and toJSON() read as they are sent.
      const plain: unknown = JSON.parse(JSON.stringify(data) ?? 'null');
      const result = schema.safeParse(plain);
      if (result.success) return JSON.stringify(result.data);
      options.onMismatch(`${method} ${url}`, result.error.issues);
      if (options.strict) {
        throw new ResponseContractError(`${method} ${url} answered outside its response schema: ${result.error.message}`);
      }
      return JSON.stringify(plain);
    };
}

export function sendApiNotFound(reply: FastifyReply) {
  return reply.status(404).send(fail(404, MESSAGES.notFound));
}
