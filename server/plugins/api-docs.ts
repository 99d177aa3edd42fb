/**
 * The API reference for school IT staff and integrators: the OpenAPI document built from the routes'
 * declared zod schemas (@fastify/swagger) and a browsable reference (@fastify/swagger-ui) at /api/docs,
 * the document itself at /api/docs/json (and /api/docs/yaml). Every asset is served from this server,
 * under a strict content security policy (no inline script or style, nothing from another origin).
 * Registered before the routes: @fastify/swagger collects them as they are added.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { APP_VERSION } from '../lib/version';

export const API_DOCS_PREFIX = '/api/docs';

// No upgrade-insecure-requests: schools often serve the product over plain HTTP on their network.
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  // The one inline style the bundle sets by attribute (outline: none on the operations list), by its hash.
  "style-src 'self' 'unsafe-hashes' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
].join('; ');

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The zod schemas as JSON Schema, plus what the routes say by themselves: a tag per area (the first path
 * segment after /api) and the bearer requirement of the routes behind a login (they have a preHandler).
 * Routes outside /api (the client, the scanner resources) are not part of the API.
 */
function transform(input: TransformInput & { route?: RouteOptions }) {
  if (!input.url.startsWith('/api/')) return { schema: { hide: true }, url: input.url };
  const { schema, url } = jsonSchemaTransform(input);
  const area = input.url.split('/')[2] ?? 'api';
  const secured = input.route?.preHandler ? { security: [{ bearer: [] }] } : {};
  return { schema: { ...schema, tags: [area], ...secured }, url };
}

async function apiDocsPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '智慧作业 API',
        version: APP_VERSION,
        description:
          '每个接口的回答都包在 `{ code, msg, data }` 信封里：`code` 与 HTTP 状态码相同（只有 200 表示成功），' +
          '`msg` 为中文提示，`data` 为数据（失败时为 null）。除登录、验证码、短信、注册、找回密码、/api/config 和 ' +
          '/api/health 外，接口都需要 `Authorization: Bearer <access_token>`（令牌由 POST /api/oauth/oauth/token 签发）。',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform,
  });
  await app.register(swaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    theme: { title: '智慧作业 API 参考' },
    staticCSP: DOCS_CSP,
    // No badge from validator.swagger.io: the reference works offline.
    uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: true },
  });
}

export default fp(apiDocsPlugin, { name: 'api-docs' });
