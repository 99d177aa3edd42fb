/**
 * File storage for uploaded files such as scanned pages: keys are relative paths with forward slashes
 * (`scans/1/7/<imageId>.jpg`). The default implementation keeps them under DATA_DIR; another backend
 * (object storage) implements the same interface. Owns atomic writes and path safety, not naming: the
 * service that stores a file chooses its key.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export type FileStorage = {
  /** Writes the whole file atomically: a reader sees the old file, or none, or the new one, never a part. */
  write(key: string, data: Buffer): Promise<void>;
  /** The file's bytes; rejects with code ENOENT when there is none. */
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
};

const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The absolute path of `key` under `root`; rejects keys that could leave it. */
export function resolveStorageKey(root: string, key: string): string {
  const segments = key.split('/');
  if (segments.length === 0 || !segments.every((segment) => SAFE_SEGMENT.test(segment) && segment !== '..')) {
    throw new Error(`Invalid storage key: ${key}`);
  }
  return path.join(root, ...segments);
}

export function createLocalFileStorage(root: string): FileStorage {
  return {
    async write(key, data) {
      const target = resolveStorageKey(root, key);
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Same directory as the target, so the rename stays on one file system and is atomic.
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await fs.writeFile(temp, data, { flag: 'wx' });
        await fs.rename(temp, target);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
    },
    read: (key) => fs.readFile(resolveStorageKey(root, key)),
    async exists(key) {
      try {
        await fs.access(resolveStorageKey(root, key));
        return true;
      } catch {
        return false;
      }
    },
  };
}
