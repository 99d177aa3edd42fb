/**
 * Scanner resources plugin: serves Dynamic Web TWAIN's resources (its scripts, styles and the scanning
 * service installers for Windows, macOS and Linux) from the installed `dwt` package at
 * /dwt-resources/, so a scan station never fetches them from a CDN. Owns the static route only; the
 * product key travels in GET /api/config.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DWT_RESOURCES_PATH } from '../../src/shared/contract/scan';

/** The `dist` folder of the installed dwt package, or null when it is not installed. */
export function dwtResourcesDir(): string | null {
  try {
    const packageJson = createRequire(import.meta.url).resolve('dwt/package.json');
    const dir = path.join(path.dirname(packageJson), 'dist');
    return fs.existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

async function scannerResourcesPlugin(app: FastifyInstance) {
  const root = dwtResourcesDir();
  if (!root) {
    app.log.warn('dwt is not installed: scan stations can use the simulated scanner and file import only');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    prefix: DWT_RESOURCES_PATH,
    decorateReply: false,
    index: false,
    // The package's files change only with its version; a day keeps stations quick and upgrades visible.
    maxAge: '1d',
  });
}

export default fp(scannerResourcesPlugin, { name: 'scanner-resources' });
