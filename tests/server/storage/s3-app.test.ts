/**
 * The app on object storage (STORAGE=s3, against s3rver): scanned pages, avatars and the files served at
 * /files/ go to the bucket and come back from it, nothing is written under DATA_DIR, a missing object is
 * the same 404 as a missing local file, and `npm run backup` / `restore` carry the bucket's objects.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backup } from '../../../scripts/backup';
import { restore } from '../../../scripts/restore';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { answers } from '../../../server/db/schema';
import { createS3FileStorage } from '../../../server/services/storage/s3-storage';
import { bearer, loginAs } from '../accounts-helper';
import { createTestApp } from '../helper';
import { callerFor, createHomework, createMarkingApp, FakeEngine, scanSheets, sheetOf } from '../marking/marking-helper';
import { createBatch, insertHomework, jpeg, uploadPage } from '../scan/scan-helper';
import { startS3, type TestS3 } from './s3-server';

let s3: TestS3;
let onS3: Awaited<ReturnType<typeof createTestApp>>;
let onDisk: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  s3 = await startS3();
  onS3 = await createTestApp({ config: { storage: { kind: 's3', ...s3.config, prefix: 'app/' } } });
  onDisk = await createTestApp();
  // Two embedded databases migrated and seeded one after the other: slow on a busy machine.
}, 300_000);
afterAll(async () => {
  await onS3?.close();
  await onDisk?.close();
  await s3?.stop();
});

/** Every file under DATA_DIR but the embedded database. */
function filesOnDisk(dataDir: string): string[] {
  return (fs.readdirSync(dataDir, { recursive: true }) as string[])
    .filter((entry) => !entry.startsWith('pgdata') && fs.statSync(path.join(dataDir, entry)).isFile())
    .sort();
}

describe('the app with STORAGE=s3', () => {
  it('stores a scanned page in the bucket and serves it back, with nothing under DATA_DIR', async () => {
    const { app } = onS3;
    const teacher = await loginAs(app, 'teacher');
    const homeworkId = await insertHomework(app, teacher.user.userGradeInfo.orgDefaultId!, undefined, teacher.user.id);
    const batch = (await createBatch(app, teacher.access_token, { homeworkId, stationName: '教务处扫描站' })).json().data;
    const image = await jpeg(77);
    const imageId = randomUUID();
    expect((await uploadPage(app, teacher.access_token, { batchId: batch.id, imageId }, image)).statusCode).toBe(200);

    const served = await app.inject({
      method: 'GET',
      url: `/api/scan/pages/${imageId}/image`,
      headers: bearer(teacher.access_token),
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(image)).toBe(true);
    expect(app.storage.kind).toBe('s3');
    const keys: string[] = [];
    for await (const key of app.storage.list('scans')) keys.push(key);
    expect(keys.some((key) => key.endsWith(`${imageId}.jpg`))).toBe(true);
    expect(filesOnDisk(onS3.dataDir)).toEqual([]);
  });

  it('stores an avatar in the bucket, serves it at /files/ and deletes the one it replaces', async () => {
    const { app } = onS3;
    const { access_token } = await loginAs(app, 'teacher');
    const upload = async (colour: string) => {
      const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: colour } })
        .png()
        .toBuffer();
      const boundary = '----s3-avatar';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await app.inject({
        method: 'POST',
        url: '/api/user/avatar',
        payload,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(access_token) },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.avatar as string;
    };
    const first = await upload('#3366cc');
    const served = await app.inject({ method: 'GET', url: `/files/${first}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(await app.storage.read(`files/${first}`))).toBe(true);
    expect((await app.inject({ method: 'HEAD', url: `/files/${first}` })).statusCode).toBe(200);

    const second = await upload('#cc6633');
    expect(await app.storage.exists(`files/${second}`)).toBe(true);
    expect(await app.storage.exists(`files/${first}`)).toBe(false);
    expect(filesOnDisk(onS3.dataDir)).toEqual([]);
  });

  it('keeps the answer crops recognition cuts in the bucket and serves them to the markers', async () => {
    const engine = new FakeEngine();
    const marking = await createMarkingApp({ engine, config: { storage: { kind: 's3', ...s3.config, prefix: 'marking/' } } });
    try {
      const { app } = marking;
      const teacher = await callerFor(app, 'teacher');
      const hw = await createHomework(app, teacher.orgId);
      await scanSheets(app, engine, teacher.token, hw.id, [sheetOf(hw.id, hw.students[0]!.code, { 1: ['B'] })]);
      await app.marking.queue.idle();
      const [answer] = await app.database.db
        .select()
        .from(answers)
        .where(and(eq(answers.homeworkId, hw.id), isNotNull(answers.regionPath)))
        .limit(1);
      expect(answer?.regionPath).toBeTruthy();
      const served = await teacher({ method: 'GET', url: `/api/marking/answers/${answer!.id}/image` });
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.equals(await app.storage.read(answer!.regionPath!))).toBe(true);
      expect(filesOnDisk(marking.dataDir)).toEqual([]);
      // An object gone from the bucket is the same 404 as a file gone from the folder.
      await app.storage.remove(answer!.regionPath!);
      expect((await teacher({ method: 'GET', url: `/api/marking/answers/${answer!.id}/image` })).statusCode).toBe(404);
    } finally {
      await marking.close();
    }
  }, 120_000);

  it('answers a missing or hostile /files/ address with the same 404 as the local folder', async () => {
    for (const url of ['/files/avatars/0123456789abcdef0123456789abcdef.png', '/files/../scans/x.jpg', '/files/%2e%2e/x.png']) {
      const fromBucket = await onS3.app.inject({ method: 'GET', url });
      const fromDisk = await onDisk.app.inject({ method: 'GET', url });
      expect(fromBucket.statusCode, url).toBe(404);
      expect(fromBucket.statusCode, url).toBe(fromDisk.statusCode);
      expect(fromBucket.json(), url).toEqual(fromDisk.json());
    }
  });

  it('stops at start with a clear message when the bucket cannot be reached', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-s3-bad-'));
    try {
      await expect(
        buildApp({
          config: {
            ...loadConfig({ NODE_ENV: 'test' }),
            dataDir,
            clientDir: '/nonexistent-client-dir',
            seedDemo: false,
            storage: { kind: 's3', ...s3.config, bucket: 'missing-bucket' },
          },
          database: { kind: 'pglite' },
        }),
      ).rejects.toThrow('无法访问对象存储 / cannot reach the object storage: bucket "missing-bucket"');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('backup and restore with STORAGE=s3', () => {
  it('puts the bucket objects in the archive and writes them back to the bucket', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-s3-backup-'));
    const storage = { kind: 's3' as const, ...s3.config, prefix: 'backup/' };
    const config = { ...loadConfig({ NODE_ENV: 'test' }), dataDir: path.join(root, 'data'), databaseUrl: undefined, storage };
    const objects = createS3FileStorage(storage);
    try {
      // A stopped server's embedded database and two objects.
      const app = await buildApp({
        config: { ...config, clientDir: '/nonexistent-client-dir', seedDemo: false },
        database: { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
      });
      await app.ready();
      await app.close();
      await objects.write('scans/1/2/page.jpg', Buffer.from('page'));
      await objects.write('files/avatars/a.png', Buffer.from('avatar'));

      const archive = path.join(root, 'backup.zip');
      expect(await backup(config, archive)).toMatchObject({ database: 'pglite', storage: 's3', files: 2 });
      await objects.remove('scans/1/2/page.jpg');
      await objects.write('files/avatars/a.png', Buffer.from('changed'));

      const restored = await restore(config, archive);
      expect(restored.files).toBe(2);
      expect((await objects.read('scans/1/2/page.jpg')).toString()).toBe('page');
      expect((await objects.read('files/avatars/a.png')).toString()).toBe('avatar');
      expect(fs.existsSync(path.join(config.dataDir, 'pgdata'))).toBe(true);
      expect(fs.existsSync(path.join(config.dataDir, 'scans'))).toBe(false);
    } finally {
      objects.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
