import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageRecognitions, scanPages } from '../../../server/db/schema';
import { createRecognitionQueue } from '../../../server/services/marking/recognition-queue';
import { callerFor, createHomework, createMarkingApp, FakeEngine, type MarkingApp, scanSheets, sheetOf } from './marking-helper';

/** Issue 12 §6: a page claimed while the queue stops is handed back, not left to wait out its lease. */
describe('recognition queue stop during a claim', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;

  beforeAll(async () => {
    // The app's own queue never runs: this test drives a queue of its own.
    handle = await createMarkingApp({ engine, stopped: true });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('waits for the claim being taken and hands the page back at once', async () => {
    const db = handle.app.database.db;
    const teacher = await callerFor(handle.app, 'teacher');
    const hw = await createHomework(handle.app, teacher.orgId);
    const imageIds = await scanSheets(handle.app, engine, teacher.token, hw.id, [sheetOf(hw.id, hw.students[0]!.code)]);
    const handled: string[] = [];
    const queue = createRecognitionQueue({
      db,
      handle: async (claim) => {
        handled.push(claim.imageId);
      },
      onFailed: async () => undefined,
      log: { error: () => undefined },
      pollMs: 60_000,
    });
    queue.start(); // claims the page at once
    await queue.stop(); // while that claim is being taken
    const [page] = await db.select().from(scanPages).where(inArray(scanPages.imageId, imageIds));
    const recs = await db.select().from(pageRecognitions).where(eq(pageRecognitions.scanPageId, page!.id));
    // Never recognised by a stopped queue; handed back: waiting to be claimed again at the next start,
    // not held under a 300 s lease.
    expect(handled).toEqual([]);
    expect(page!.status).toBe('stored');
    expect(recs.every((rec) => rec.claimToken === null)).toBe(true);
  });
});
