/**
 * Client plugin: serves the three built entries from CLIENT_DIR. The teacher portal uses history-mode
 * routes, so any other GET that is not under /api and not a file gets teacher.html. Unknown /api paths
 * are answered by the envelope's JSON 404, never by the page. Text assets are sent from the build's
 * Brotli or gzip copies when the browser accepts them.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { isApiPath, sendApiNotFound } from './envelope';

export type ClientPluginOptions = { clientDir: string };

const PORTAL_PAGE = 'teacher.html';

async function clientPlugin(app: FastifyInstance, options: ClientPluginOptions) {
  const { clientDir } = options;
  const built = fs.existsSync(path.join(clientDir, PORTAL_PAGE));
  if (!built) app.log.warn({ clientDir }, 'client is not built: run `npm run build`');

  if (built) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      wildcard: true,
      // The build writes .br and .gz copies of every text asset (vite.config.ts): sent as they are.
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply: FastifyReply, filePath: string) {
        // Hashed assets never change; the HTML shells must always be fresh so a deploy is picked up.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendPortal = (reply: FastifyReply) => {
    if (!built) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('客户端尚未构建，请先运行 npm run build（npm start 会自动构建）。');
    }
    return reply.header('cache-control', 'no-cache').sendFile(PORTAL_PAGE);
  };

  app.get('/', (_request, reply) => sendPortal(reply));

  app.setNotFoundHandler((request, reply) => {
    const url = request.raw.url ?? '/';
    if (isApiPath(url)) return sendApiNotFound(reply);
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && !path.extname(url.split('?')[0] ?? '');
    if (isPageRequest) return sendPortal(reply);
    return sendApiNotFound(reply);
  });
}

export default fp(clientPlugin, { name: 'client', dependencies: ['envelope'] });
