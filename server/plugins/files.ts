/**
 * Files plugin: owns DATA_DIR/files (stored images such as avatars). Creates it, decorates
 * `app.filesDir`, and serves it at IMAGE_BASE_URL when that is a local path; when the base URL points at
 * another host (a CDN), serving is that host's business.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    filesDir: string;
  }
}

export type FilesPluginOptions = { dataDir: string; imageBaseUrl: string };

async function filesPlugin(app: FastifyInstance, options: FilesPluginOptions) {
  const filesDir = path.resolve(options.dataDir, 'files');
  await fs.mkdir(filesDir, { recursive: true });
  app.decorate('filesDir', filesDir);
  if (options.imageBaseUrl.startsWith('/')) {
    await app.register(fastifyStatic, {
      root: filesDir,
      prefix: options.imageBaseUrl,
      decorateReply: false,
      index: false,
      // Stored files get random names and never change.
      cacheControl: true,
      maxAge: '365d',
      immutable: true,
    });
  }
}

export default fp(filesPlugin, { name: 'files' });
