/**
 * Backup archives of a server on the embedded database: one zip holding a manifest, the PGlite data
 * folder as PGlite's own tar.gz dump (taken by the running server between two queries, so it is
 * consistent) and every stored file under DATA_DIR (scanned pages, avatars...). Written and read as
 * streams (fflate), so a DATA_DIR of many gigabytes of scans never sits in memory. A PostgreSQL server's
 * database is backed up with pg_dump instead (README, "Backups"); its archive holds the files only.
 * With STORAGE=s3 the stored files are the bucket's objects (under S3_PREFIX): they are read into the
 * archive one object at a time and written back to the bucket on restore.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Unzip, UnzipInflate, Zip, ZipDeflate } from 'fflate';
import type { FileStorage } from '../storage/file-storage';

export const BACKUP_FORMAT = 'smart-homework-backup';
const MANIFEST = 'manifest.json';
const DATABASE_ENTRY = 'database/pgdata.tar.gz';
const FILES_PREFIX = 'files/';

/** Entries of DATA_DIR that are not stored files: the database itself and the backup machinery. */
export const NOT_STORED_FILES = new Set(['pgdata', 'backup-endpoint.json', 'before-restore']);

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** pglite: the archive holds the database; postgres: back it up with pg_dump. */
  database: 'pglite' | 'postgres';
  /** Where the files came from (absent in archives written before object storage: the local folder). */
  storage?: 'local' | 's3';
  files: number;
};

/** Every stored file under dataDir, as forward-slash paths relative to it. */
export async function listStoredFiles(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(relative: string) {
    const entries = await fsp.readdir(path.join(dataDir, relative), { withFileTypes: true });
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && NOT_STORED_FILES.has(entry.name)) continue;
      // Half-written files of an atomic write (file-storage.ts) are not worth keeping.
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) found.push(child);
    }
  }
  if (fs.existsSync(dataDir)) await walk('');
  return found.sort();
}

/** Writes the archive: the manifest, the database dump (when given) and every stored file. */
export async function writeBackup(options: {
  dataDir: string;
  database: 'pglite' | 'postgres';
  /** PGlite's dumpDataDir('gzip'); absent for PostgreSQL. */
  databaseDump?: Blob;
  /** An object store holding the files (STORAGE=s3); absent: the files under dataDir. */
  objects?: FileStorage;
  out: string;
  now?: Date;
}): Promise<BackupManifest> {
  const { objects } = options;
  const files: string[] = [];
  if (objects) for await (const key of objects.list('')) files.push(key);
  else files.push(...(await listStoredFiles(options.dataDir)));
  files.sort();
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: (options.now ?? new Date()).toISOString(),
    database: options.database,
    storage: objects ? 's3' : 'local',
    files: files.length,
  };
  await fsp.mkdir(path.dirname(path.resolve(options.out)), { recursive: true });
  const partial = `${options.out}.partial`;
  const out = fs.createWriteStream(partial);
  let failure: Error | null = null;
  const done = new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    out.on('finish', resolve);
  });
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else out.write(chunk);
    if (final || error) out.end();
  });
  const drain = () => (out.writableNeedDrain ? new Promise<void>((resolve) => out.once('drain', () => resolve())) : undefined);

  const addBytes = async (name: string, data: Uint8Array) => {
    const entry = new ZipDeflate(name, { level: 1 });
    zip.add(entry);
    entry.push(data, true);
    await drain();
  };
  await addBytes(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
  if (options.databaseDump) await addBytes(DATABASE_ENTRY, new Uint8Array(await options.databaseDump.arrayBuffer()));
  for (const file of files) {
    const entry = new ZipDeflate(`${FILES_PREFIX}${file}`, { level: 1 });
    zip.add(entry);
    if (objects) {
      entry.push(await objects.read(file), true);
      await drain();
      continue;
    }
    for await (const chunk of fs.createReadStream(path.join(options.dataDir, file))) {
      entry.push(chunk as Buffer, false);
      await drain();
    }
    entry.push(new Uint8Array(0), true);
  }
  zip.end();
  await done;
  if (failure) throw failure;
  await fsp.rename(partial, options.out);
  return manifest;
}

const SAFE_SEGMENT = /^[A-Za-z0-9\u4e00-\u9fff][A-Za-z0-9\u4e00-\u9fff._ -]*$/;

/** The path under dataDir a stored-file entry goes to, or null for a name that could leave it. */
function storedFileTarget(dataDir: string, name: string): string | null {
  const relative = name.slice(FILES_PREFIX.length);
  const segments = relative.split('/');
  if (segments.length === 0 || !segments.every((segment) => SAFE_SEGMENT.test(segment) && segment !== '..')) return null;
  if (NOT_STORED_FILES.has(segments[0]!)) return null;
  return path.join(dataDir, ...segments);
}

export type RestoredBackup = { manifest: BackupManifest; databaseDump: Blob | null; files: number };

/**
 * Reads an archive into dataDir (or, given `objects`, into that object store): stored files are written
 * in place, the database dump is answered for the caller to load (restoreBackup in scripts/restore.ts).
 * Refuses what is not one of our archives.
 */
export async function readBackup(file: string, dataDir: string, objects?: FileStorage): Promise<RestoredBackup> {
  let manifest: BackupManifest | null = null;
  const dumpChunks: Uint8Array[] = [];
  let files = 0;
  let problem: Error | null = null;
  /** Objects read whole and not yet written to the store; awaited after every chunk of the archive. */
  let uploads: Promise<void>[] = [];

  const unzip = new Unzip((entry) => {
    if (entry.name === MANIFEST || entry.name === DATABASE_ENTRY) {
      const chunks: Uint8Array[] = [];
      entry.ondata = (error, data, final) => {
        if (error) return void (problem = error);
        chunks.push(data);
        if (!final) return;
        if (entry.name === DATABASE_ENTRY) dumpChunks.push(...chunks);
        else manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as BackupManifest;
      };
      entry.start();
      return;
    }
    // The manifest comes first: without it this is not our archive, and nothing is written.
    const target = manifest && entry.name.startsWith(FILES_PREFIX) ? storedFileTarget(dataDir, entry.name) : null;
    if (!target) {
      problem ??= new Error(`Unexpected entry in the backup: ${entry.name}`);
      return;
    }
    if (objects) {
      const key = path.relative(dataDir, target).split(path.sep).join('/');
      const chunks: Uint8Array[] = [];
      entry.ondata = (error, data, final) => {
        if (error) return void (problem = error);
        chunks.push(data);
        if (!final) return;
        uploads.push(
          objects.write(key, Buffer.concat(chunks)).then(
            () => void (files += 1),
            (failure: Error) => void (problem ??= failure),
          ),
        );
      };
      entry.start();
      return;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const fd = fs.openSync(target, 'w');
    entry.ondata = (error, data, final) => {
      if (error) problem = error;
      else fs.writeSync(fd, data);
      if (final || error) {
        fs.closeSync(fd);
        files += 1;
      }
    };
    entry.start();
  });
  unzip.register(UnzipInflate);
  const flush = async () => {
    const pending = uploads;
    uploads = [];
    await Promise.all(pending);
  };
  for await (const chunk of fs.createReadStream(file)) {
    unzip.push(chunk as Buffer);
    await flush();
    if (problem) break;
  }
  if (!problem) unzip.push(new Uint8Array(0), true);
  await flush();
  if (problem) throw problem;
  const read = manifest as BackupManifest | null;
  if (!read || read.format !== BACKUP_FORMAT) throw new Error(`${file} is not a 智慧作业 backup`);
  return {
    manifest: read,
    databaseDump: dumpChunks.length > 0 ? new Blob(dumpChunks as Uint8Array<ArrayBuffer>[]) : null,
    files,
  };
}
