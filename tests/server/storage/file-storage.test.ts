/**
 * One contract for every file-storage backend: the local folder and S3 (against s3rver started here, on
 * a random port over a temporary folder). The same cases run on both, so scans, answer crops, avatars,
 * logos and backups behave the same whichever STORAGE is configured.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';
import { createLocalFileStorage, type FileStorage } from '../../../server/services/storage/file-storage';
import { createS3FileStorage } from '../../../server/services/storage/s3-storage';
import { startS3, type TestS3 } from './s3-server';

async function listed(storage: FileStorage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list(prefix)) keys.push(key);
  return keys.sort();
}

const missing = (promise: Promise<unknown>) => expect(promise).rejects.toMatchObject({ code: 'ENOENT' });

type Backend = {
  name: string;
  open: () => Promise<{ storage: FileStorage; close: () => Promise<void> }>;
  /** Whether the server under test replaces a file atomically while it is read (see the race case). */
  testsAtomicReplace: boolean;
};

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.stop();
});

const backends: Backend[] = [
  {
    name: 'local folder',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-storage-'));
      return { storage: createLocalFileStorage(dir), close: async () => fs.rmSync(dir, { recursive: true, force: true }) };
    },
    testsAtomicReplace: true,
  },
  {
    name: 'S3 (s3rver)',
    open: async () => {
      const storage = createS3FileStorage({ ...s3.config, prefix: `run-${randomBytes(4).toString('hex')}/` });
      await storage.check();
      return { storage, close: async () => storage.close() };
    },
    // s3rver rewrites an object's file in place, so a read racing an overwrite aborts; S3 itself (and the
    // services that copy its API) replace an object whole on PUT. Our keys are written once in practice
    // (random names, one row per scanned page), so this is not relied on.
    testsAtomicReplace: false,
  },
];

describe.each(backends)('file storage contract: $name', (backend) => {
  let storage: FileStorage;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ storage, close } = await backend.open());
  });
  afterAll(async () => {
    await close?.();
  });

  it('reads back exactly the bytes written, and a second write replaces the whole file', async () => {
    const first = randomBytes(3000);
    await storage.write('scans/1/7/page.jpg', first);
    expect((await storage.read('scans/1/7/page.jpg')).equals(first)).toBe(true);
    const second = randomBytes(10);
    await storage.write('scans/1/7/page.jpg', second);
    expect((await storage.read('scans/1/7/page.jpg')).equals(second)).toBe(true);
  });

  it('keeps a scanned page of several megabytes intact', async () => {
    const page = randomBytes(6 * 1024 * 1024);
    await storage.write('scans/1/8/big.jpg', page);
    expect((await storage.read('scans/1/8/big.jpg')).equals(page)).toBe(true);
  });

  it('rejects the read of a missing file with ENOENT, as the routes expect for their 404', async () => {
    await missing(storage.read('scans/1/7/none.jpg'));
    await missing(storage.read('nowhere/at/all.png'));
    expect(await storage.exists('scans/1/7/none.jpg')).toBe(false);
  });

  it('answers exists, removes, and treats removing a missing file as done', async () => {
    await storage.write('files/avatars/a.png', Buffer.from('png'));
    expect(await storage.exists('files/avatars/a.png')).toBe(true);
    // A folder is not a file.
    expect(await storage.exists('files/avatars')).toBe(false);
    await storage.remove('files/avatars/a.png');
    expect(await storage.exists('files/avatars/a.png')).toBe(false);
    await missing(storage.read('files/avatars/a.png'));
    await expect(storage.remove('files/avatars/a.png')).resolves.toBeUndefined();
  });

  it('lists the keys under a folder, and every key', async () => {
    await storage.write('files/logos/l1.png', Buffer.from('1'));
    await storage.write('files/logos/l2.png', Buffer.from('2'));
    await storage.write('regions/1/x/1.jpg', Buffer.from('3'));
    expect(await listed(storage, 'files/logos/')).toEqual(['files/logos/l1.png', 'files/logos/l2.png']);
    expect(await listed(storage, 'files/logos')).toEqual(['files/logos/l1.png', 'files/logos/l2.png']);
    expect(await listed(storage, 'nothing-here')).toEqual([]);
    const all = await listed(storage, '');
    expect(all).toEqual(expect.arrayContaining(['files/logos/l1.png', 'regions/1/x/1.jpg', 'scans/1/7/page.jpg']));
    expect(all.every((key) => !key.endsWith('.tmp'))).toBe(true);
  });

  it('refuses keys that could leave the storage', async () => {
    for (const key of ['../escape.jpg', 'scans/../../escape.jpg', '/etc/passwd', '', 'a//b.jpg', 'scans/.hidden']) {
      await expect(storage.write(key, Buffer.from('x'))).rejects.toThrow('Invalid storage key');
      await expect(storage.read(key)).rejects.toThrow('Invalid storage key');
    }
  });

  it.runIf(backend.testsAtomicReplace)(
    'lets readers see the old file or the new one while writes race, never a part',
    async () => {
      const versions = [randomBytes(200_000), randomBytes(200_000), randomBytes(200_000)];
      await storage.write('scans/race.jpg', versions[0]!);
      const reads = Array.from({ length: 6 }, () => storage.read('scans/race.jpg'));
      await Promise.all([storage.write('scans/race.jpg', versions[1]!), ...reads]);
      for (const read of await Promise.all(reads)) expect(versions.some((version) => version.equals(read))).toBe(true);
    },
  );
});

describe('S3 storage set-up', () => {
  it('stops with a clear message when the bucket does not exist', async () => {
    const storage = createS3FileStorage({ ...s3.config, bucket: 'no-such-bucket' });
    try {
      await expect(storage.check()).rejects.toThrow(
        /无法访问对象存储 \/ cannot reach the object storage: bucket "no-such-bucket".*存储桶不存在/,
      );
    } finally {
      storage.close();
    }
  });

  it('keeps one installation under its prefix, apart from another in the same bucket', async () => {
    const one = createS3FileStorage({ ...s3.config, prefix: 'school-a/' });
    const two = createS3FileStorage({ ...s3.config, prefix: 'school-b/' });
    try {
      await one.write('files/x.png', Buffer.from('a'));
      await missing(two.read('files/x.png'));
      expect(await listed(one, 'files')).toEqual(['files/x.png']);
      expect(await listed(two, 'files')).toEqual([]);
    } finally {
      one.close();
      two.close();
    }
  });
});

describe('storage configuration', () => {
  const s3Env = { STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' };

  it('keeps the local folder by default', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
  });

  it('reads the S3 settings', () => {
    expect(loadConfig({ ...s3Env, S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_PREFIX: 'sh' }).storage).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'b',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      prefix: 'sh/',
    });
  });

  it('names what is missing or wrong, in Chinese and English', () => {
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(problem({ STORAGE: 'ftp' })).toContain('STORAGE 只能是 local 或 s3 / must be local or s3');
    expect(problem({ STORAGE: 's3' })).toContain('STORAGE=s3 需要 S3_BUCKET（存储桶名称）/ needs S3_BUCKET');
    expect(problem({ STORAGE: 's3', S3_BUCKET: 'b' })).toContain('needs S3_REGION, or S3_ENDPOINT');
    expect(problem({ ...s3Env, S3_ACCESS_KEY_ID: 'k' })).toContain('S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY 须同时设置');
    expect(problem({ ...s3Env, S3_ENDPOINT: 'not a url' })).toContain('S3_ENDPOINT');
    expect(problem({ ...s3Env, S3_PREFIX: '../up' })).toContain('S3_PREFIX 须为 a/b 形式的路径');
    expect(problem({ ...s3Env, S3_FORCE_PATH_STYLE: 'yes' })).toContain('S3_FORCE_PATH_STYLE 只能是 true 或 false');
  });
});
