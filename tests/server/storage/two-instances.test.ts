/**
 * Two instances behind one address, on one PostgreSQL, one Redis and one bucket (s3rver), each with its
 * own empty DATA_DIR (no shared disk): a scanned page stored through one instance is announced to a
 * screen connected to the other and can be read through the other; a screen whose instance goes away
 * reconnects to the other, reads the current state over HTTP (the batch the scan station and the
 * portal read) and carries on from there with nothing missed. The same for a paired wall screen (display
 * token, joined to the school's screen room, not the teachers'): it hears pages raised on the other instance
 * and comes back on the other with a fresh snapshot. Runs where TEST_DATABASE_URL (with the
 * postgres project) and TEST_REDIS_URL are set, and is skipped elsewhere.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  largeScreenSnapshotSchema,
  pairingCollectResultSchema,
  screenPairingSchema,
} from '../../../src/shared/contract/large-screen';
import { SCAN_PAGE_STORED_EVENT, type ScanPageStoredEvent, scanBatchSchema } from '../../../src/shared/contract/scan-upload';
import { buildApp } from '../../../server/app';
import { bearer, loginAs } from '../accounts-helper';
import { testDatabaseOptions } from '../helper';
import { createBatch, jpeg, uploadPage } from '../scan/scan-helper';
import { startS3, type TestS3 } from './s3-server';
import { testAppConfig } from '../../support/test-app-config';

const redisUrl = process.env.TEST_REDIS_URL;
const onPostgres = process.env.TEST_DB_KIND === 'postgres' && Boolean(process.env.TEST_DATABASE_URL);

type Instance = { app: FastifyInstance; url: string; dataDir: string };

/** A screen: a signed-in socket.io client that keeps every scan event it hears. */
type Screen = { socket: Socket; events: ScanPageStoredEvent[] };

async function openScreen(url: string, token: string): Promise<Screen> {
  const socket = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token },
    forceNew: true,
    reconnection: false,
  });
  const events: ScanPageStoredEvent[] = [];
  socket.on(SCAN_PAGE_STORED_EVENT, (event: ScanPageStoredEvent) => events.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once('server.joined', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

/** A wall screen paired through `instance` by the school's creator (whole school): its display token. */
async function pairWallScreen(instance: Instance, creator: string): Promise<string> {
  const { code, secret } = screenPairingSchema.parse(
    (await instance.app.inject({ method: 'POST', url: '/api/screens/pairings' })).json().data,
  );
  const paired = await instance.app.inject({
    method: 'POST',
    url: '/api/screens',
    headers: bearer(creator),
    payload: { code, name: '走廊大屏', scopeKind: 'school', panels: ['pipeline'] },
  });
  expect(paired.statusCode, paired.body).toBe(200);
  const collected = pairingCollectResultSchema.parse(
    (await instance.app.inject({ method: 'POST', url: '/api/screens/pairings/collect', payload: { secret } })).json().data,
  );
  return collected.token!;
}

/** Waits until `screen` has heard an event with this page count. */
async function heard(screen: Screen, pageCount: number): Promise<ScanPageStoredEvent> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const event = screen.events.find((e) => e.pageCount === pageCount);
    if (event) return event;
    if (Date.now() > deadline) throw new Error(`no event with pageCount ${pageCount}; heard ${JSON.stringify(screen.events)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(onPostgres && redisUrl)('two instances on PostgreSQL, Redis and object storage', () => {
  const { options: database, drop } = testDatabaseOptions();
  const instances: Instance[] = [];
  const screens: Screen[] = [];
  let s3: TestS3;

  async function start(): Promise<Instance> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-instance-'));
    const app = await buildApp({
      config: testAppConfig(dataDir, { redisUrl, storage: { kind: 's3', ...s3.config } }),
      database,
    });
    // Pages wait unrecognised: this test is about delivery, not recognition.
    app.marking.queue.disable();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const instance = { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, dataDir };
    instances.push(instance);
    return instance;
  }

  beforeAll(async () => {
    s3 = await startS3();
  });

  afterAll(async () => {
    for (const screen of screens) screen.socket.disconnect();
    for (const { app, dataDir } of instances) {
      await app.close().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await drop();
    await s3?.stop();
  });

  it('delivers across instances, serves one instance’s pages from the other, and resumes on the other without a gap', async () => {
    const a = await start();
    const b = await start();
    const teacher = await loginAs(a.app, 'teacher');
    const token = teacher.access_token;
    const batch = scanBatchSchema.parse((await createBatch(a.app, token, { stationName: '教务处扫描站' })).json().data);
    const upload = async (instance: Instance, shade: number) => {
      const image = await jpeg(shade);
      const imageId = randomUUID();
      const response = await uploadPage(instance.app, token, { batchId: batch.id, imageId }, image);
      expect(response.statusCode, response.body).toBe(200);
      return { image, imageId };
    };

    // One screen on each instance, and a paired wall screen (display token, its own rooms) on each.
    const onA = await openScreen(a.url, token);
    const onB = await openScreen(b.url, token);
    const display = await pairWallScreen(a, (await loginAs(a.app, 'creator')).access_token);
    const wallOnA = await openScreen(a.url, display);
    const wallOnB = await openScreen(b.url, display);
    screens.push(onA, onB, wallOnA, wallOnB);

    // The adapter's subscription may need a moment after start: upload again until B hears A.
    let first = await upload(a, 10);
    for (let attempt = 1; !onB.events.some((e) => e.batchId === batch.id); attempt += 1) {
      if (attempt > 50) throw new Error('instance B never heard instance A');
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (attempt % 10 === 0) first = await upload(a, 10 + attempt);
    }
    const seen = Math.max(...onB.events.map((e) => e.pageCount));
    expect((await heard(onA, seen)).batchId).toBe(batch.id);
    // The wall screens, in the school's screen room rather than the teachers', hear it on both instances.
    expect((await heard(wallOnB, seen)).batchId).toBe(batch.id);
    expect((await heard(wallOnA, seen)).batchId).toBe(batch.id);

    // A page stored through A is read through B: the bytes come from the bucket, B's disk holds nothing.
    const fromB = await b.app.inject({ method: 'GET', url: `/api/scan/pages/${first.imageId}/image`, headers: bearer(token) });
    expect(fromB.statusCode).toBe(200);
    expect(fromB.rawPayload.equals(first.image)).toBe(true);
    expect(fs.existsSync(path.join(a.dataDir, 'scans'))).toBe(false);
    expect(fs.existsSync(path.join(b.dataDir, 'scans'))).toBe(false);

    // Instance A goes away (a deploy, a crash): its screen is cut off and pages keep arriving through B.
    const lastOnA = Math.max(...onA.events.map((e) => e.pageCount));
    await a.app.close();
    expect(onA.socket.connected).toBe(false);
    // Stopping one instance leaves the other's screens alone.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(onB.socket.connected).toBe(true);
    expect(wallOnA.socket.connected).toBe(false);
    expect(wallOnB.socket.connected).toBe(true);
    await upload(b, 60);
    await upload(b, 61);

    // The screen comes back on B, reads the current state, then hears the next page, continuing from it.
    const resumed = await openScreen(b.url, token);
    screens.push(resumed);
    const snapshot = await fetch(`${b.url}/api/scan/batches/${batch.id}`, { headers: bearer(token) });
    const state = scanBatchSchema.parse(((await snapshot.json()) as { data: unknown }).data);
    expect(state.pageCount).toBe(lastOnA + 2);
    await upload(b, 62);
    const next = await heard(resumed, state.pageCount + 1);
    expect(next).toMatchObject({ batchId: batch.id, pageCount: state.pageCount + 1 });
    // The wall screen cut off with A comes back on B with its display token: a fresh snapshot (its state),
    // then the next page.
    const wallResumed = await openScreen(b.url, display);
    screens.push(wallResumed);
    const wallState = await b.app.inject({ method: 'GET', url: '/api/largescreen/snapshot', headers: bearer(display) });
    expect(wallState.statusCode, wallState.body).toBe(200);
    expect(largeScreenSnapshotSchema.parse(wallState.json().data).title).toBe('走廊大屏');
    await upload(b, 63);
    await heard(wallResumed, state.pageCount + 2);
    expect((await heard(wallOnB, state.pageCount + 2)).batchId).toBe(batch.id);
    // The screen that stayed on B heard every page in order.
    const onBCounts = onB.events.filter((e) => e.batchId === batch.id).map((e) => e.pageCount);
    expect(onBCounts).toEqual(Array.from({ length: onBCounts.length }, (_, i) => onBCounts[0]! + i));
    expect(onBCounts.at(-1)).toBe(state.pageCount + 2);
  }, 180_000);
});
