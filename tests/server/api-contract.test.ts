/**
 * Every /api route declares, with the zod contract schemas, each part of the request it reads and its
 * answer: `params` when its path has parameters, `querystring` when it reads the query, `body` when it takes
 * one, and a `response` for 200 (or, for a file, the content types it `produces`). The routes are seen
 * through an onRoute hook as the real app registers them. It also checks the OpenAPI reference is served.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { testDatabaseOptions } from './helper';

/**
 * The only routes that take a body they do not declare: multipart uploads, whose parts are streamed and
 * checked in the handler (a file cannot go through a JSON schema). Each still declares its answer.
 */
const MULTIPART_BODY = new Set([
  'POST /api/user/avatar', // one image, field `file`
  'POST /api/org/schools/:orgId/logo', // one image, field `file`
  'POST /api/classes/:id/students/import', // one .xlsx roster, field `file`
  'POST /api/scan/pages', // text fields checked with scanPageFieldsSchema, then `file`
  'POST /api/question-images', // one picture of a 本校题, field `file`
]);

type Schema = {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  response?: Record<string, unknown>;
  produces?: string[];
  hide?: boolean;
};

/** What a route fails to declare; empty when its contract is complete. */
function contractProblems(route: Pick<RouteOptions, 'method' | 'url' | 'handler' | 'schema'>): string[] {
  const method = String(route.method);
  const key = `${method} ${route.url}`;
  const schema = (route.schema ?? {}) as Schema;
  const source = route.handler.toString();
  const problems: string[] = [];
  if (route.url.includes(':') && !schema.params) problems.push(`${key}: path parameters without a params schema`);
  if (/request\.query\b/.test(source) && !schema.querystring)
    problems.push(`${key}: reads the query without a querystring schema`);
  const takesBody = ['POST', 'PUT', 'PATCH'].includes(method) || /request\.body\b/.test(source);
  if (takesBody && !schema.body && !MULTIPART_BODY.has(key)) problems.push(`${key}: takes a body without a body schema`);
  if (/parseInput\(/.test(source) && !MULTIPART_BODY.has(key))
    problems.push(`${key}: validates in the handler instead of its schema`);
  if (!schema.response?.['200'] && !schema.produces?.length)
    problems.push(`${key}: no response schema (nor the file types it produces)`);
  return problems;
}

describe('the API contract', () => {
  const routes: RouteOptions[] = [];
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  let dataDir: string;

  beforeAll(async () => {
    const database = testDatabaseOptions();
    drop = database.drop;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-contract-'));
    app = await buildApp({
      config: {
        ...loadConfig({ NODE_ENV: 'test', DEV_OUTBOX: 'true' }),
        dataDir,
        clientDir: '/nonexistent-client-dir',
        seedDemo: false,
      },
      database: database.options,
      onRoute: (route) => routes.push(route),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const apiRoutes = () =>
    routes.filter(
      (route) => route.url.startsWith('/api/') && route.method !== 'HEAD' && !(route.schema as Schema | undefined)?.hide,
    );

  it('sees the API routes', () => {
    const keys = apiRoutes().map((route) => `${String(route.method)} ${route.url}`);
    expect(keys.length).toBeGreaterThan(40);
    expect(keys).toContain('GET /api/homework/:id');
    expect(keys).toContain('POST /api/oauth/oauth/token');
  });

  it('finds every part of every /api route declared', () => {
    expect(apiRoutes().flatMap(contractProblems)).toEqual([]);
  });

  it('keeps the multipart allowlist to routes that exist', () => {
    const keys = new Set(apiRoutes().map((route) => `${String(route.method)} ${route.url}`));
    for (const key of MULTIPART_BODY) expect(keys.has(key)).toBe(true);
  });

  it('names a route that lacks its schemas', () => {
    const handler = async (request: { params: unknown; query: unknown; body: unknown }) => [request.params, request.query];
    const bare = { method: 'PUT', url: '/api/things/:id', handler, schema: undefined } as unknown as RouteOptions;
    expect(contractProblems(bare)).toEqual([
      'PUT /api/things/:id: path parameters without a params schema',
      'PUT /api/things/:id: reads the query without a querystring schema',
      'PUT /api/things/:id: takes a body without a body schema',
      'PUT /api/things/:id: no response schema (nor the file types it produces)',
    ]);
  });

  it('serves the OpenAPI document and the browsable reference at /api/docs, all from this server', async () => {
    const doc = await app.inject('/api/docs/json');
    expect(doc.statusCode).toBe(200);
    const paths = doc.json<{ paths: Record<string, unknown> }>().paths;
    expect(Object.keys(paths)).toContain('/api/marking/homework/{id}/questions/{no}/next');
    expect(Object.keys(paths).every((p) => p.startsWith('/api/'))).toBe(true);

    const page = await app.inject('/api/docs/');
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(page.body).not.toMatch(/<script>|https?:\/\//);
    for (const asset of [...page.body.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1])) {
      expect((await app.inject(`/api/docs/${asset}`)).statusCode, asset).toBe(200);
    }
  });
});
