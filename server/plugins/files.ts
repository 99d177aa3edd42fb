/**
 * Files plugin: owns the file storage (`app.storage`: the local folder DATA_DIR, or an S3-compatible
 * bucket with STORAGE=s3) and serves its `files/` folder (avatars, logos, question images) at
 * IMAGE_BASE_URL when that is a local path; when the base URL points at another host (a CDN or the
 * bucket's own address), serving is that host's business. With S3 the bucket is checked at start, so a
 * wrong setting stops the server with a clear message instead of failing the first upload.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { StorageConfig } from '../config';
import {
  createLocalFileStorage,
  type FileStorage,
  isStorageKey,
  SERVED_FILES,
  servedFileKey,
} from '../services/storage/file-storage';
import { contentTypeOf, createS3FileStorage } from '../services/storage/s3-storage';

declare module 'fastify' {
  interface FastifyInstance {
    storage: FileStorage;
  }
}

export type FilesPluginOptions = { dataDir: string; imageBaseUrl: string; storage: StorageConfig };

/** Stored files get random names and never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

async function filesPlugin(app: FastifyInstance, options: FilesPluginOptions) {
  const served = options.imageBaseUrl.startsWith('/');
  if (options.storage.kind === 'local') {
    const root = path.resolve(options.dataDir);
    const filesDir = path.join(root, SERVED_FILES);
    await fs.mkdir(filesDir, { recursive: true });
    app.decorate('storage', createLocalFileStorage(root));
    if (served) {
      await app.register(fastifyStatic, {
        root: filesDir,
        prefix: options.imageBaseUrl,
        decorateReply: false,
        index: false,
        cacheControl: true,
        maxAge: '365d',
        immutable: true,
      });
    }
    return;
  }

  const storage = createS3FileStorage(options.storage);
  await storage.check();
  app.addHook('onClose', async () => storage.close());
  app.decorate('storage', storage);
  if (!served) return;
  app.get(`${options.imageBaseUrl}*`, async (request, reply) => {
    const relative = (request.params as { '*': string })['*'];
    if (!isStorageKey(relative)) return reply.callNotFound();
    try {
      const data = await storage.read(servedFileKey(relative));
      return await reply.type(contentTypeOf(relative)).header('cache-control', IMMUTABLE).send(data);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reply.callNotFound();
      throw error;
    }
  });
}

export default fp(filesPlugin, { name: 'files' });
