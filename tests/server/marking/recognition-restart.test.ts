import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { homework, pageRecognitions, scanPages } from '../../../server/db/schema';
import {
  callerFor,
  createHomework,
  createMarkingApp,
  FakeEngine,
  type MarkingApp,
  persistentDatabase,
  scanSheets,
  sheetOf,
} from './marking-helper';

async function statuses(handle: MarkingApp, imageIds: string[]) {
  const rows = await handle.app.database.db
    .select({ imageId: scanPages.imageId, status: scanPages.status })
    .from(scanPages)
    .where(inArray(scanPages.imageId, imageIds));
  return imageIds.map((id) => rows.find((row) => row.imageId === id)?.status);
}

describe('recognition queue across restarts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-restart-'));
  const { database, drop } = persistentDatabase(dataDir);
  const shared = { dataDir, database };
  let open: MarkingApp | undefined;

  afterAll(async () => {
    await open?.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes pages stored before a restart, and takes over a page whose worker died', async () => {
    const engine = new FakeEngine();
    // First life: the queue does not run, so the pages are stored and wait.
    open = await createMarkingApp({ shared, stopped: true });
    const teacher = await callerFor(open.app, 'teacher');
    const hw = await createHomework(open.app, teacher.orgId);
    const imageIds = await scanSheets(
      open.app,
      engine,
      teacher.token,
      hw.id,
      hw.students.slice(0, 3).map((s) => sheetOf(hw.id, s.code, { 1: ['B'] })),
    );
    expect(await statuses(open, imageIds)).toEqual(['stored', 'stored', 'stored']);
    // Pages waiting: the homework is being scanned.
    await expect
      .poll(async () => (await open!.app.database.db.select().from(homework).where(eq(homework.id, hw.id)))[0]!.status)
      .toBe('scanning');
    // A worker of another instance claimed the third page and died: its lease has run out.
    const [third] = await open.app.database.db.select().from(scanPages).where(eq(scanPages.imageId, imageIds[2]!));
    await open.app.database.db.update(scanPages).set({ status: 'recognising' }).where(eq(scanPages.id, third!.id));
    await open.app.database.db.insert(pageRecognitions).values({
      orgId: third!.orgId,
      scanPageId: third!.id,
      imageId: third!.imageId,
      batchId: third!.batchId,
      leaseUntil: sql`now() - interval '1 minute'`,
      claimToken: 'dead-worker',
      attempts: 1,
    });
    await open.close();
    open = undefined;

    // Second life on the same data folder and database, now with an engine.
    open = await createMarkingApp({ shared, engine });
    await open.app.marking.queue.idle();
    expect(await statuses(open, imageIds)).toEqual(['recognised', 'recognised', 'recognised']);
    expect((await open.app.database.db.select().from(homework).where(eq(homework.id, hw.id)))[0]!.status).toBe('marking');
    const scores = await open.app.database.db.execute(
      sql`select count(*)::int as n from question_scores where homework_id = ${hw.id}`,
    );
    const rows = Array.isArray(scores) ? scores : (scores as unknown as { rows: { n: number }[] }).rows;
    expect(rows[0]).toEqual({ n: 3 * 3 });
  });

  it('answers uploads at once while the engine is busy, and hands busy pages back when closing', async () => {
    await open?.close();
    const engine = new FakeEngine();
    let release!: () => void;
    engine.gate = new Promise<void>((resolve) => (release = resolve));
    open = await createMarkingApp({ shared, engine });
    const teacher = await callerFor(open.app, 'teacher');
    const hw = await createHomework(open.app, teacher.orgId);
    // scanSheets asserts each upload answered 200 while the engine holds every page.
    const imageIds = await scanSheets(
      open.app,
      engine,
      teacher.token,
      hw.id,
      hw.students.slice(0, 3).map((s) => sheetOf(hw.id, s.code)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await statuses(open, imageIds)).filter((s) => s === 'recognising').length).toBeGreaterThan(0);

    const closing = open.close();
    setTimeout(release, 100);
    await closing;
    open = await createMarkingApp({ shared, stopped: true });
    // Whatever was in flight finished before the close; nothing is left half-claimed.
    expect((await statuses(open, imageIds)).filter((s) => s === 'recognising')).toEqual([]);
    await open.close();
    open = await createMarkingApp({ shared, engine });
    await open.app.marking.queue.idle();
    expect(await statuses(open, imageIds)).toEqual(['recognised', 'recognised', 'recognised']);
  });
});
