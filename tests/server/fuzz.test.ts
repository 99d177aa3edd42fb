/**
 * Property-based fuzzing of every declared route against the real app (app.inject, logged in as a demo
 * teacher): params, query and body are generated from each route's own zod schemas, with hostile values
 * mixed in (NUL, lone surrogates, huge and fractional numbers, impossible dates, prototype keys, wrong
 * types). Whatever comes in, the answer is never a 5xx. Bounded so the file runs in well under a minute.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { bearer, loginAs } from './accounts-helper';
import { testDatabaseOptions } from './helper';

/** Cases per route; every route gets them, so the whole file stays bounded. */
const RUNS_PER_ROUTE = 30;
/** Fixed, so a failure replays the same way; FUZZ_SEED=<n> explores further. */
const SEED = Number(process.env.FUZZ_SEED) || 20_261_123;

/** Routes that would end the fuzzing session itself (they take no input anyway). */
const SKIPPED = new Set(['DELETE /api/oauth/signout']);

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '😀',
  '2026-02-30',
  '0000-01-01',
  '2026-13-01',
  '9999-12-31',
  '__proto__',
  'constructor',
  "'; drop table users; --",
  '%00',
  '1e400',
  '2147483648',
  '99999999999999999999',
  '-1',
  '0',
  'NaN',
  'true',
  'x'.repeat(5000),
];
const HOSTILE_NUMBERS = [0, -1, 0.5, 1, 2, 3, 7, 2_147_483_647, 2_147_483_648, 2 ** 53 + 2, 1e308, -1e308, 5e-324];
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 40 }));
const hostileNumber = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/** Plausible values, so that most of a request passes and the one hostile field reaches the handler. */
const plausibleString = fc.oneof(
  fc.constantFrom('A', '数学', '第一单元', '2026-03-01', '2026-03-31', '13800000001', 'teacher', 'true', '1', '123456'),
  fc.uuid(),
);
const plausibleNumber = fc.constantFrom(0, 1, 2, 3, 5, 10);
/** The inputs that broke the server once: each gets a fair share of every field. */
const knownBadString = fc.constantFrom('a\u0000b', '\u0000', 'x\uD800', '\uDC00y', '2026-02-30', '0000-01-01');
const knownBadNumber = fc.constantFrom(2_147_483_648, 2 ** 53 + 2, 1e308, -1, 0.5);
const mostly = <T>(plausible: fc.Arbitrary<T>, knownBad: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: plausible, weight: 3 }, { arbitrary: knownBad, weight: 2 }, { arbitrary: hostile, weight: 1 });
const prototypeObject = fc
  .tuple(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom<unknown>({ polluted: true }, null, 'x', 1))
  .map(([key, value]) => Object.fromEntries([[key, value]]));
/** Anything at all, whatever the schema asks for. */
const chaos: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.constantFrom<unknown>(null, true, false, [], {}),
  prototypeObject,
  fc.array(hostileString, { maxLength: 3 }),
);

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  getter?: () => z.ZodType;
  valueType?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Values shaped by the schema (so validation often passes and the handler runs), some hostile. */
function arbitraryFor(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return chaos;
  const def = defOf(schema);
  const shaped = ((): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'object': {
        const entries = Object.entries(def.shape ?? {}).map(([key, value]) => [key, arbitraryFor(value, depth + 1)] as const);
        const record = fc.record(Object.fromEntries(entries));
        return fc
          .tuple(record, fc.option(prototypeObject, { freq: 4 }))
          .map(([value, extra]) => (extra ? { ...Object.fromEntries(Object.entries(extra)), ...value } : value));
      }
      case 'array':
        return fc.array(arbitraryFor(def.element!, depth + 1), { maxLength: 4 });
      case 'union':
        return fc.oneof(...def.options!.map((option) => arbitraryFor(option, depth + 1)));
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
        return fc.oneof(
          { arbitrary: arbitraryFor(def.innerType!, depth + 1), weight: 3 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        );
      case 'pipe':
        return arbitraryFor(def.in!, depth + 1);
      case 'lazy':
        return arbitraryFor(def.getter!(), depth + 1);
      case 'enum':
        return fc.constantFrom(...Object.values(def.entries ?? {}));
      case 'literal':
        return fc.constantFrom(...(def.values ?? []));
      case 'string':
        return mostly(plausibleString, knownBadString, hostileString);
      case 'number':
      case 'int':
        return mostly(plausibleNumber, knownBadNumber, hostileNumber);
      case 'boolean':
        return fc.boolean();
      case 'record':
        return fc.dictionary(hostileString, arbitraryFor(def.valueType!, depth + 1), { maxKeys: 3 });
      default:
        return chaos;
    }
  })();
  return fc.oneof({ arbitrary: shaped, weight: 12 }, { arbitrary: chaos, weight: 1 });
}

/** A query string value as a browser would send it. */
function queryValue(value: unknown): string | string[] {
  if (Array.isArray(value)) return value.map((item) => String(typeof item === 'object' ? JSON.stringify(item) : item));
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const pathValue = fc.oneof(
  fc.constantFrom(
    '1',
    '1',
    '2',
    '2',
    '3',
    '1',
    '2',
    '3',
    '2147483647',
    '2147483648',
    '99999999999999999999',
    '0',
    '-1',
    '1.5',
    'abc',
    '%00',
    '%F0%9F%98%80',
  ),
  fc.uuid(),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);

type Schema = { params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType; hide?: boolean };

describe('fuzzing every declared route', () => {
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  let dataDir: string;
  let token = '';

  beforeAll(async () => {
    const database = testDatabaseOptions();
    drop = database.drop;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-fuzz-'));
    app = await buildApp({
      config: {
        ...loadConfig({ NODE_ENV: 'test', DEV_OUTBOX: 'true' }),
        dataDir,
        clientDir: '/nonexistent-client-dir',
        seedDemo: true,
      },
      database: database.options,
      onRoute: (route) => routes.push(route),
    });
    await app.ready();
    token = (await loginAs(app, 'teacher')).access_token;
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const fuzzed = () =>
    routes.filter((route) => {
      const schema = route.schema as Schema | undefined;
      return (
        route.url.startsWith('/api/') &&
        route.method !== 'HEAD' &&
        !schema?.hide &&
        !SKIPPED.has(`${String(route.method)} ${route.url}`) &&
        Boolean(schema?.params || schema?.querystring || schema?.body)
      );
    });

  it('fuzzes the routes that take input', () => {
    expect(fuzzed().length).toBeGreaterThan(30);
  });

  it('never answers 5xx, whatever the params, query and body', async () => {
    const failures: string[] = [];
    for (const route of fuzzed()) {
      const method = String(route.method) as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      const schema = route.schema as Schema;
      const names = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      const request = fc.record({
        params: fc.tuple(...names.map(() => pathValue)),
        query: schema.querystring ? arbitraryFor(schema.querystring) : fc.constant(undefined),
        body: schema.body ? arbitraryFor(schema.body) : fc.constant(undefined),
      });
      await fc
        .assert(
          fc.asyncProperty(request, async ({ params, query, body }) => {
            let url = route.url;
            names.forEach((name, index) => (url = url.replace(`:${name}`, params[index] ?? '1')));
            const queryObject =
              query !== null && typeof query === 'object' && !Array.isArray(query)
                ? Object.fromEntries(
                    Object.entries(query)
                      .filter(([, value]) => value !== undefined)
                      .map(([key, value]) => [key, queryValue(value)]),
                  )
                : undefined;
            const response = await app.inject({
              method,
              url,
              query: queryObject,
              headers: { ...bearer(token), ...(schema.body ? { 'content-type': 'application/json' } : {}) },
              ...(schema.body ? { payload: JSON.stringify(body ?? null) } : {}),
            });
            if (response.statusCode >= 500) {
              failures.push(
                `${method} ${url} ${JSON.stringify(queryObject)} ${JSON.stringify(body)} -> ${response.statusCode} ${response.body}`,
              );
            }
            return response.statusCode < 500;
          }),
          { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
        )
        .catch(() => undefined);
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
