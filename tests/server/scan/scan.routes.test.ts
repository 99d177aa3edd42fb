import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCAN_MESSAGES,
  SCAN_PAGE_STORED_EVENT,
  scanBatchListSchema,
  scanBatchSchema,
  scanPageStoredSchema,
  type ScanPageStoredEvent,
} from '../../../src/shared/contract/scan-upload';
import { users } from '../../../server/db/schema';
import { bearer, failure, loginAs } from '../accounts-helper';
import { useTestApp } from '../helper';
import { createBatch, insertHomework, insertOtherSchool, jpeg, multipart, uploadPage } from './scan-helper';

describe('scan endpoints', () => {
  const app = useTestApp();

  let teacher: string;
  let newbie: string;
  let demoOrgId: number;
  let homeworkId: number;
  let otherHomeworkId: number;
  let otherBatchId: number;

  /** DATA_DIR of the test app (files live in DATA_DIR/files, scans in DATA_DIR/scans). */
  const dataDir = app.dataDir;

  /** Every stored scan file under DATA_DIR/scans, relative to DATA_DIR. */
  function storedFiles(): string[] {
    const root = path.join(dataDir(), 'scans');
    if (!fs.existsSync(root)) return [];
    return (fs.readdirSync(root, { recursive: true }) as string[])
      .map((entry) => path.join('scans', entry))
      .filter((entry) => fs.statSync(path.join(dataDir(), entry)).isFile())
      .sort();
  }

  async function newBatch(body: Record<string, unknown> = { homeworkId, stationName: '教务处扫描站' }) {
    const response = await createBatch(app(), teacher, body);
    expect(response.statusCode).toBe(200);
    return scanBatchSchema.parse(response.json().data);
  }

  beforeAll(async () => {
    const login = await loginAs(app(), 'teacher');
    teacher = login.access_token;
    demoOrgId = login.user.userGradeInfo.orgDefaultId!;
    const newbieLogin = await loginAs(app(), 'newbie');
    newbie = newbieLogin.access_token;
    homeworkId = await insertHomework(app(), demoOrgId, undefined, login.user.id);
    const otherOrgId = await insertOtherSchool(app(), newbieLogin.user.id);
    otherHomeworkId = await insertHomework(app(), otherOrgId, '另一所学校的作业');
    const other = await createBatch(app(), newbie, { homeworkId: otherHomeworkId, stationName: '别校扫描站' });
    otherBatchId = scanBatchSchema.parse(other.json().data).id;
  });

  describe('scan batches', () => {
    it('creates a batch for a homework of the school, with no pages yet', async () => {
      const batch = await newBatch();
      expect(batch).toMatchObject({ orgId: demoOrgId, homeworkId, stationName: '教务处扫描站', pageCount: 0 });
    });

    it('creates a batch without homework when the QR code is to tell (homework id null)', async () => {
      expect((await newBatch({ stationName: '按二维码识别' })).homeworkId).toBeNull();
      expect((await newBatch({ homeworkId: null, stationName: 'A' })).homeworkId).toBeNull();
    });

    it("answers 404 for another school's homework", async () => {
      expect(failure(await createBatch(app(), teacher, { homeworkId: otherHomeworkId, stationName: 'x' })).status).toBe(404);
    });

    it.each([{}, { stationName: '' }, { stationName: 'x'.repeat(41) }, { stationName: 'x', homeworkId: 'abc' }])(
      'answers 400 for the body %j',
      async (body) => {
        const response = await createBatch(app(), teacher, body);
        expect(failure(response).status).toBe(400);
        expect(response.json().msg).toMatch(/^请求参数错误/);
      },
    );

    it('lists the batches of a homework, newest first, and never those of another school', async () => {
      const first = await newBatch();
      const second = await newBatch();
      const response = await app().inject({
        method: 'GET',
        url: `/api/scan/batches?homeworkId=${homeworkId}`,
        headers: bearer(teacher),
      });
      const list = scanBatchListSchema.parse(response.json().data);
      expect(list.map((b) => b.id).slice(0, 2)).toEqual([second.id, first.id]);
      expect(list.every((b) => b.homeworkId === homeworkId)).toBe(true);
      const all = scanBatchListSchema.parse(
        (await app().inject({ method: 'GET', url: '/api/scan/batches', headers: bearer(teacher) })).json().data,
      );
      expect(all.some((b) => b.id === otherBatchId)).toBe(false);
      expect(all.some((b) => b.homeworkId === null)).toBe(true);
    });

    it("answers 404 for another school's batch and 400 for a bad id", async () => {
      const get = (id: string | number) =>
        app().inject({ method: 'GET', url: `/api/scan/batches/${id}`, headers: bearer(teacher) });
      expect(failure(await get(otherBatchId)).status).toBe(404);
      expect(failure(await get('abc')).status).toBe(400);
      expect(
        failure(await app().inject({ method: 'GET', url: '/api/scan/batches?homeworkId=x', headers: bearer(teacher) })).status,
      ).toBe(400);
    });

    it('needs a login and a school', async () => {
      expect(failure(await app().inject({ method: 'GET', url: '/api/scan/batches' })).status).toBe(401);
      const creator = await loginAs(app(), 'creator');
      await app().database.db.update(users).set({ defaultOrgId: null }).where(eq(users.id, creator.user.id));
      const response = await app().inject({ method: 'GET', url: '/api/scan/batches', headers: bearer(creator.access_token) });
      expect(failure(response)).toEqual({ status: 403, msg: SCAN_MESSAGES.noSchool });
    });
  });

  describe('scanned pages', () => {
    it('stores a page once, counts it in its batch and serves its image back', async () => {
      const batch = await newBatch();
      const imageId = randomUUID();
      const image = await jpeg(100);
      const before = storedFiles();
      const response = await uploadPage(app(), teacher, { batchId: batch.id, imageId, sequence: 3 }, image);
      expect(response.statusCode).toBe(200);
      expect(scanPageStoredSchema.parse(response.json().data)).toEqual({ imageId, duplicate: false, batchPageCount: 1 });
      const added = storedFiles().filter((file) => !before.includes(file));
      expect(added).toEqual([path.join('scans', String(demoOrgId), String(homeworkId), `${imageId}.jpg`)]);

      const served = await app().inject({ method: 'GET', url: `/api/scan/pages/${imageId}/image`, headers: bearer(teacher) });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.rawPayload.equals(image)).toBe(true);

      const fetched = await app().inject({ method: 'GET', url: `/api/scan/batches/${batch.id}`, headers: bearer(teacher) });
      expect(scanBatchSchema.parse(fetched.json().data).pageCount).toBe(1);
    });

    it('answers a repeated upload of the same image with duplicate: true and stores nothing again', async () => {
      const batch = await newBatch();
      const imageId = randomUUID();
      const image = await jpeg(120);
      await uploadPage(app(), teacher, { batchId: batch.id, imageId }, image);
      const file = path.join(dataDir(), 'scans', String(demoOrgId), String(homeworkId), `${imageId}.jpg`);
      const firstWrite = fs.statSync(file).mtimeMs;
      const filesBefore = storedFiles();

      const again = await uploadPage(app(), teacher, { batchId: batch.id, imageId }, image);
      expect(again.statusCode).toBe(200);
      expect(again.json().data).toEqual({ imageId, duplicate: true, batchPageCount: 1 });
      expect(storedFiles()).toEqual(filesBefore);
      expect(fs.statSync(file).mtimeMs).toBe(firstWrite);
    });

    it('stores a page exactly once when the same upload arrives several times at once', async () => {
      const batch = await newBatch();
      const imageId = randomUUID();
      const image = await jpeg(130);
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() => uploadPage(app(), teacher, { batchId: batch.id, imageId }, image)),
      );
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(answers.filter((r) => r.json().data.duplicate === false)).toHaveLength(1);
      const fetched = await app().inject({ method: 'GET', url: `/api/scan/batches/${batch.id}`, headers: bearer(teacher) });
      expect(fetched.json().data.pageCount).toBe(1);
      expect(storedFiles().filter((f) => f.includes(imageId))).toHaveLength(1);
    });

    it('answers 409 when another image arrives under a stored image id, and keeps the first image', async () => {
      const batch = await newBatch();
      const imageId = randomUUID();
      const first = await jpeg(140);
      await uploadPage(app(), teacher, { batchId: batch.id, imageId }, first);
      const response = await uploadPage(app(), teacher, { batchId: batch.id, imageId }, await jpeg(20));
      expect(failure(response)).toEqual({ status: 409, msg: SCAN_MESSAGES.imageConflict });
      const served = await app().inject({ method: 'GET', url: `/api/scan/pages/${imageId}/image`, headers: bearer(teacher) });
      expect(served.rawPayload.equals(first)).toBe(true);
    });

    it('stores the pages of a QR-code batch under qr/', async () => {
      const batch = await newBatch({ stationName: '按二维码识别' });
      const imageId = randomUUID();
      await uploadPage(app(), teacher, { batchId: batch.id, imageId }, await jpeg(150));
      expect(storedFiles()).toContain(path.join('scans', String(demoOrgId), 'qr', `${imageId}.jpg`));
    });

    it('refuses a file that is not a JPEG, by its bytes and not its name', async () => {
      const batch = await newBatch();
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
      const response = await uploadPage(app(), teacher, { batchId: batch.id, imageId: randomUUID() }, png);
      expect(failure(response)).toEqual({ status: 400, msg: SCAN_MESSAGES.notJpeg });
    });

    it('answers 400 without a file, and for bad fields', async () => {
      const batch = await newBatch();
      expect(failure(await uploadPage(app(), teacher, { batchId: batch.id, imageId: randomUUID() }, undefined))).toEqual({
        status: 400,
        msg: SCAN_MESSAGES.missingFile,
      });
      const image = await jpeg();
      for (const fields of [
        { batchId: batch.id, imageId: 'not-a-uuid' },
        { batchId: 'x', imageId: randomUUID() },
        { batchId: batch.id, imageId: randomUUID(), sequence: -1 },
        { batchId: batch.id, imageId: randomUUID(), scanSubject: 'maybe' },
        { batchId: batch.id, imageId: randomUUID(), width: 0 },
      ]) {
        expect(failure(await uploadPage(app(), teacher, fields, image)).status, JSON.stringify(fields)).toBe(400);
      }
      const json = await app().inject({
        method: 'POST',
        url: '/api/scan/pages',
        headers: bearer(teacher),
        payload: { batchId: batch.id },
      });
      expect(failure(json)).toEqual({ status: 400, msg: SCAN_MESSAGES.missingFile });
    });

    it('answers 400 for a file over 20 MB', async () => {
      const batch = await newBatch();
      const big = Buffer.concat([await jpeg(), Buffer.alloc(20 * 1024 * 1024 + 10)]);
      const body = multipart(
        { batchId: batch.id, imageId: randomUUID(), sequence: 1, scanSubject: true, width: 1, height: 1 },
        { data: big },
      );
      const response = await app().inject({
        method: 'POST',
        url: '/api/scan/pages',
        headers: { ...bearer(teacher), 'content-type': body.contentType },
        payload: body.payload,
      });
      expect([400, 413]).toContain(failure(response).status);
    });

    it("answers 404 for another school's batch and keeps another school's image hidden", async () => {
      const files = storedFiles();
      const response = await uploadPage(app(), teacher, { batchId: otherBatchId, imageId: randomUUID() }, await jpeg());
      expect(failure(response).status).toBe(404);
      expect(storedFiles()).toEqual(files);

      const batch = await newBatch();
      const imageId = randomUUID();
      await uploadPage(app(), teacher, { batchId: batch.id, imageId }, await jpeg(160));
      const peek = await app().inject({ method: 'GET', url: `/api/scan/pages/${imageId}/image`, headers: bearer(newbie) });
      expect(failure(peek).status).toBe(404);
      const steal = await uploadPage(app(), newbie, { batchId: otherBatchId, imageId }, await jpeg(160));
      expect(failure(steal).status).toBe(409);
      expect(failure(await app().inject({ method: 'GET', url: `/api/scan/pages/${imageId}/image` })).status).toBe(401);
    });
  });

  describe('realtime', () => {
    let baseUrl: string;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      await app().listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(app().server.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      for (const socket of sockets) socket.disconnect();
    });

    function open(token?: string): Socket {
      const socket = connect(baseUrl, { path: '/socket.io', transports: ['websocket'], auth: token ? { token } : {} });
      sockets.push(socket);
      return socket;
    }

    it("tells the school's signed-in sockets about a stored page, and no one else", async () => {
      const teacherSocket = open(teacher);
      const anonymous = open();
      const otherSchool = open(newbie);
      // Listen on every socket before awaiting any: the joins finish in any order.
      await Promise.all([
        new Promise((resolve) => teacherSocket.once('server.joined', resolve)),
        new Promise((resolve) => otherSchool.once('server.joined', resolve)),
        new Promise((resolve) => (anonymous.connected ? resolve(null) : anonymous.once('server.hello', resolve))),
      ]);
      const strays: unknown[] = [];
      anonymous.on(SCAN_PAGE_STORED_EVENT, (event) => strays.push(event));
      otherSchool.on(SCAN_PAGE_STORED_EVENT, (event) => strays.push(event));

      const batch = await newBatch();
      const received = new Promise<ScanPageStoredEvent>((resolve) => teacherSocket.once(SCAN_PAGE_STORED_EVENT, resolve));
      await uploadPage(app(), teacher, { batchId: batch.id, imageId: randomUUID() }, await jpeg(170));
      expect(await received).toEqual({ homeworkId, batchId: batch.id, pageCount: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(strays).toEqual([]);
    });

    it('still greets a socket without a token', async () => {
      const socket = open();
      expect(await new Promise((resolve) => socket.once('server.hello', resolve))).toMatchObject({ version: expect.any(String) });
    });
  });
});
