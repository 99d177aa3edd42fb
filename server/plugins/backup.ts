/**
 * Backup plugin: lets `npm run backup` take a consistent dump of the embedded database while the server
 * runs. On listening it writes DATA_DIR/backup-endpoint.json (the port and a random key, readable by
 * the server's own OS user only) and answers GET /api/system/backup/database with PGlite's tar.gz dump
 * to callers on this machine that present the key. Whoever can read that file can read DATA_DIR anyway.
 * Nothing is registered on PostgreSQL, whose backups are pg_dump's.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../lib/api-error';
import { isLoopback } from '../routes/dev/dev-outbox.routes';

export const BACKUP_ENDPOINT_FILE = 'backup-endpoint.json';
export const BACKUP_DATABASE_PATH = '/api/system/backup/database';
export const BACKUP_KEY_HEADER = 'x-backup-key';

export type BackupEndpoint = { port: number; key: string; pid: number };

const BACKUP_TYPE = 'application/gzip';
/** Answers the tar.gz dump (no response schema), or the envelope on failure. Other headers pass through. */
const databaseSchema = {
  headers: z.looseObject({ [BACKUP_KEY_HEADER]: z.string().optional() }),
  produces: [BACKUP_TYPE],
};

async function backupPlugin(fastify: FastifyInstance, options: { dataDir: string }) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const dump = app.database.dumpDataDir;
  if (!dump) return;
  const key = randomBytes(32).toString('hex');
  const endpointFile = path.join(path.resolve(options.dataDir), BACKUP_ENDPOINT_FILE);

  app.get(BACKUP_DATABASE_PATH, { schema: databaseSchema }, async (request, reply) => {
    const given = Buffer.from(String(request.headers[BACKUP_KEY_HEADER] ?? ''));
    const expected = Buffer.from(key);
    const keyOk = given.length === expected.length && timingSafeEqual(given, expected);
    if (!keyOk || !isLoopback(request.socket.remoteAddress ?? '')) throw ApiError.notFound();
    const tarball = Buffer.from(await (await dump()).arrayBuffer());
    return reply.type(BACKUP_TYPE).header('cache-control', 'no-store').send(tarball);
  });

  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!address || typeof address === 'string') return;
    const endpoint: BackupEndpoint = { port: address.port, key, pid: process.pid };
    await fs.writeFile(endpointFile, JSON.stringify(endpoint), { mode: 0o600 });
  });
  app.addHook('onClose', async () => {
    await fs.rm(endpointFile, { force: true });
  });
}

export default fp(backupPlugin, { name: 'backup', dependencies: ['db'] });
