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

/** Raised by `jsonValue` for what it leaves to JSON itself (class instances, bigint, very deep nesting). */
class NotPlainJson extends Error {}

/** Deeper than this is left to JSON.stringify (which also reports a cycle as it always has). */
const MAX_DEPTH = 1000;

/**
 * What JSON.stringify would read from `value`, without writing the text: `toJSON()` called (Dates become
 * their ISO text), non-finite numbers null, `undefined` / functions / symbols left out of objects and null
 * in arrays. Plain objects and arrays that need none of this are returned as they are (no copy); only the
 * path to a changed value is copied. `OMIT` stands for a value JSON leaves out. Anything that is not a plain
 * object or array (a Map, a class instance, a boxed primitive, a bigint) throws NotPlainJson, and the caller
 * goes through JSON text instead.
 */
const OMIT: unique symbol = Symbol('omit');
function jsonValue(value: unknown, key: string | number, depth: number): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: (key: string) => unknown }).toJSON(String(key));
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return OMIT;
    case 'bigint':
      throw new NotPlainJson();
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) throw new NotPlainJson();
  const proto: unknown = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) throw new NotPlainJson();
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      let out = jsonValue(item, i, depth + 1);
      if (out === OMIT) out = null;
      if (copy) copy.push(out);
      else if (out !== item) {
        copy = value.slice(0, i);
        copy.push(out);
      }
    }
    return copy ?? value;
  }
  if (proto !== Object.prototype && proto !== null) throw new NotPlainJson();
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object);
  let copy: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i += 1) {
    const name = keys[i]!;
    // An own "__proto__" (JSON.parse makes one) would set a copy's prototype instead.
    if (name === '__proto__') throw new NotPlainJson();
    const item = object[name];
    const out = jsonValue(item, name, depth + 1);
    if (!copy && out === item) continue;
    if (!copy) {
      copy = {};
      for (let j = 0; j < i; j += 1) copy[keys[j]!] = object[keys[j]!];
    }
    if (out !== OMIT) copy[name] = out;
  }
  return copy ?? object;
}

/**
 * `data` as JSON would read it back (JSON.parse(JSON.stringify(data))), read in place where it is plain
 * already: the answer is turned into text once, not three times (a homework's analysis is ~1 MB).
 */
function asJson(data: unknown): unknown {
  try {
    const value = jsonValue(data, '', 0);
    return value === OMIT ? null : value;
  } catch (error) {
    if (!(error instanceof NotPlainJson)) throw error;
    return JSON.parse(JSON.stringify(data) ?? 'null') as unknown;
  }
}

/**
 * The serializer compiler of the declared response schemas: the answer is parsed with its schema, so only
 * the declared fields leave the server (a stray column never leaks). A mismatch is a bug: `strict` (tests)
 * makes it a 500 so a test sees it; otherwise it is logged and the answer is sent as the handler made it,
 * so a client is never broken by a contract that lags behind. The schema reads the answer as JSON would
 * (Dates and toJSON() as they are sent, see asJson) and the answer is stringified once.
 */
export function responseSerializerCompiler(options: {
  strict: boolean;
  onMismatch: (url: string, issues: z.core.$ZodIssue[]) => void;
}): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url }) =>
    (data) => {
      const plain = asJson(data);
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
