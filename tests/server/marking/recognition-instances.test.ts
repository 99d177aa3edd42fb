import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { scanPages } from '../../../server/db/schema';
import { testDatabaseOptions } from '../helper';
import { callerFor, createHomework, createMarkingApp, FakeEngine, type MarkingApp, scanSheets, sheetOf } from './marking-helper';

// Two instances need one database they both reach: PostgreSQL (PGlite belongs to one process).
describe.runIf(process.env.TEST_DB_KIND === 'postgres' && process.env.TEST_DATABASE_URL)('recognition on two instances', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-instances-'));
  const { options, drop } = testDatabaseOptions();
  const shared = { dataDir, database: options };
  const apps: MarkingApp[] = [];

  afterAll(async () => {
    for (const handle of apps) await handle.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('recognises every page exactly once when two instances take pages from one queue', async () => {
    const first = new FakeEngine();
    const second = new FakeEngine();
    first.delayMs = 30;
    second.delayMs = 30;
    apps.push(await createMarkingApp({ shared, engine: first }));
    apps.push(await createMarkingApp({ shared, engine: second }));
    const [a, b] = apps as [MarkingApp, MarkingApp];
    const teacher = await callerFor(a.app, 'teacher');
    const hw = await createHomework(a.app, teacher.orgId);
    const students = hw.students.slice(0, 16);
    // Only the first instance hears of the uploads; the second finds the pages in the database.
    // The first instance holds its first pages until the second has started on the rest.
    let release!: () => void;
    first.gate = new Promise<void>((resolve) => (release = resolve));
    const imageIds = await scanSheets(
      a.app,
      first,
      teacher.token,
      hw.id,
      students.map((s) => sheetOf(hw.id, s.code, { 1: ['B'] })),
    );
    for (const [hash, sheet] of first.sheets) second.sheets.set(hash, sheet);
    b.app.marking.queue.wake();
    setTimeout(release, 100);
    await Promise.all([a.app.marking.queue.idle(), b.app.marking.queue.idle()]);

    expect(first.calls + second.calls).toBe(students.length);
    expect(second.calls).toBeGreaterThan(0);
    const rows = await a.app.database.db.select().from(scanPages).where(inArray(scanPages.imageId, imageIds));
    expect(rows.every((row) => row.status === 'recognised')).toBe(true);
  });
});
