/**
 * `npm run backup [file]`: archives the embedded database and every stored file of DATA_DIR into one
 * zip (default backups/smart-homework-<time>.zip). While the server runs the database dump is taken by
 * the server itself (consistent, between two queries); when it is stopped, from the data folder. On
 * PostgreSQL (DATABASE_URL) the archive holds the stored files, and the database is pg_dump's (README).
 * With STORAGE=s3 the stored files are the bucket's objects (under S3_PREFIX), copied into the archive.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Config, loadConfig } from '../server/config';
import { BACKUP_DATABASE_PATH, BACKUP_ENDPOINT_FILE, BACKUP_KEY_HEADER, type BackupEndpoint } from '../server/plugins/backup';
import { type BackupManifest, writeBackup } from '../server/services/backup/backup-archive';
import type { FileStorage } from '../server/services/storage/file-storage';
import { createS3FileStorage } from '../server/services/storage/s3-storage';

/** The object store of STORAGE=s3 (checked), or null for the local folder; `close` when done. */
export async function objectStoreOf(config: Pick<Config, 'storage'>): Promise<(FileStorage & { close(): void }) | null> {
  if (config.storage.kind !== 's3') return null;
  const store = createS3FileStorage(config.storage);
  await store.check();
  return store;
}

/** The running server's endpoint file, when a live process wrote it. */
export function liveServer(dataDir: string): BackupEndpoint | null {
  const file = path.join(dataDir, BACKUP_ENDPOINT_FILE);
  if (!fs.existsSync(file)) return null;
  const endpoint = JSON.parse(fs.readFileSync(file, 'utf8')) as BackupEndpoint;
  try {
    process.kill(endpoint.pid, 0);
    return endpoint;
  } catch (error) {
    // EPERM: alive but another user's; ESRCH: gone (a crash left the file behind).
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? endpoint : null;
  }
}

async function databaseDump(config: Pick<Config, 'dataDir' | 'host'>): Promise<Blob> {
  const server = liveServer(config.dataDir);
  if (server) {
    const local = ['0.0.0.0', '::', 'localhost', '::1'].includes(config.host) || config.host.startsWith('127.');
    if (!local) throw new Error(`The server listens on ${config.host} only; stop it to back up, or run it with HOST=0.0.0.0.`);
    const response = await fetch(`http://127.0.0.1:${server.port}${BACKUP_DATABASE_PATH}`, {
      headers: { [BACKUP_KEY_HEADER]: server.key },
    });
    if (!response.ok) throw new Error(`The running server refused the database dump (HTTP ${response.status}).`);
    return response.blob();
  }
  const pgdata = path.join(config.dataDir, 'pgdata');
  if (!fs.existsSync(pgdata)) throw new Error(`No embedded database in ${config.dataDir}.`);
  const client = await PGlite.create(pgdata);
  try {
    return await client.dumpDataDir('gzip');
  } finally {
    await client.close();
  }
}

export async function backup(
  config: Pick<Config, 'dataDir' | 'host' | 'databaseUrl' | 'storage'>,
  out: string = path.join('backups', `smart-homework-${new Date().toISOString().replace(/[:.]/g, '-')}.zip`),
): Promise<BackupManifest & { out: string }> {
  const objects = (await objectStoreOf(config)) ?? undefined;
  try {
    const manifest = config.databaseUrl
      ? await writeBackup({ dataDir: config.dataDir, database: 'postgres', objects, out })
      : await writeBackup({
          dataDir: config.dataDir,
          database: 'pglite',
          databaseDump: await databaseDump(config),
          objects,
          out,
        });
    return { ...manifest, out: path.resolve(out) };
  } finally {
    objects?.close();
  }
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  try {
    const config = loadConfig();
    const result = await backup(config, process.argv[2]);
    const from = config.storage.kind === 's3' ? `objects of bucket ${config.storage.bucket}` : 'stored files';
    console.log(`备份完成 / backup written: ${result.out} (${result.files} ${from})`);
    if (result.database === 'postgres') {
      console.log('The database is PostgreSQL: back it up with pg_dump as well, see README.md ("Backups").');
    }
  } catch (error) {
    console.error(`备份失败 / backup failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
