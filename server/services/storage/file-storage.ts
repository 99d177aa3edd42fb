/**
 * File storage for uploaded files such as scanned pages, answer crops, avatars and logos: keys are
 * relative paths with forward slashes (`scans/1/7/<imageId>.jpg`, `files/avatars/<name>.png`). Two
 * backends implement the one interface: the local folder under DATA_DIR (the default, here) and an
 * S3-compatible object store (s3-storage.ts), chosen by STORAGE. Owns atomic writes and key safety, not
 * naming: the service that stores a file chooses its key.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export type FileStorage = {
  /** 'local': files under DATA_DIR; 's3': objects in a bucket (no shared disk between instances). */
  readonly kind: 'local' | 's3';
  /** Writes the whole file atomically: a reader sees the old file, or none, or the new one, never a part. */
  write(key: string, data: Buffer): Promise<void>;
  /** The file's bytes; rejects with code ENOENT when there is none (on every backend). */
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  /** Deletes the file; a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Every key under `prefix` (a folder such as `files/`, or '' for all), in no particular order. */
  list(prefix: string): AsyncIterable<string>;
};

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Throws for a key that is not a plain relative path of safe segments (no `..`, no leading slash). */
export function checkStorageKey(key: string): string[] {
  const segments = key.split('/');
  if (segments.length === 0 || !segments.every((segment) => SAFE_SEGMENT.test(segment) && segment !== '..')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
  return segments;
}

/** Whether `key` is a valid storage key (for keys that come from a request). */
export function isStorageKey(key: string): boolean {
  try {
    checkStorageKey(key);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `key` under `root`; rejects keys that could leave it. */
export function resolveStorageKey(root: string, key: string): string {
  return path.join(root, ...checkStorageKey(key));
}

/** The error every backend rejects a read of a missing file with. */
export function missingFile(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`No stored file ${key}`), { code: 'ENOENT' });
}

const TEMP_SUFFIX = '.tmp';

export function createLocalFileStorage(root: string): FileStorage {
  return {
    kind: 'local',
    async write(key, data) {
      const target = resolveStorageKey(root, key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Same directory as the target, so the rename stays on one file system and is atomic.
      const temp = `${target}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
      try {
        await fs.writeFile(temp, data, { flag: 'wx' });
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    read: async (key) => fs.readFile(resolveStorageKey(root, key)),
    async exists(key) {
      try {
        return (await fs.stat(resolveStorageKey(root, key))).isFile();
      } catch {
        return false;
      }
    },
    async remove(key) {
      await fs.rm(resolveStorageKey(root, key), { force: true });
    },
    async *list(prefix) {
      const start = prefix.replace(/\/+$/, '');
      const dir = start === '' ? root : resolveStorageKey(root, start);
      async function* walk(absolute: string, relative: string): AsyncGenerator<string> {
        let entries;
        try {
          entries = await fs.readdir(absolute, { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries) {
          const child = relative ? `${relative}/${entry.name}` : entry.name;
          if (entry.isDirectory()) yield* walk(path.join(absolute, entry.name), child);
          else if (entry.isFile() && !entry.name.endsWith(TEMP_SUFFIX) && !entry.name.startsWith('.')) yield child;
        }
      }
      yield* walk(dir, start);
    },
  };
}

/** The folder of stored files served at IMAGE_BASE_URL (avatars, logos, question images). */
export const SERVED_FILES = 'files';

/** The storage key of a file served at IMAGE_BASE_URL + `relative` (e.g. avatars/ab12.png). */
export const servedFileKey = (relative: string) => `${SERVED_FILES}/${relative}`;
