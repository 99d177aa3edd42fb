import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homework, questionScores, reviewItems, scanPages } from '../../server/db/schema';
import { seedDemo } from '../../server/db/seed';
import { DEMO_SCANNED_HOMEWORK } from '../../server/db/seed-papers';
import { demoImageId, runDemoScans } from '../../server/services/scan/demo-scans';
import { createTestApp } from './helper';

describe('the demo homework scanned through the real path', () => {
  // Unit-test seeding leaves it out; this file seeds it explicitly. The app starts the recognition
  // engine's worker threads: allowed more time than a hook's default on a busy machine.
  let handle: Awaited<ReturnType<typeof createTestApp>> | undefined;
  beforeAll(async () => {
    handle = await createTestApp({ seedDemo: false });
  }, 180_000);
  afterAll(async () => {
    await handle?.close();
  }, 60_000);
  const app = (): FastifyInstance => handle!.app;
  const STUDENTS = 3;

  it('draws, stores and recognises the sheets, scores their objective answers and marks part of the rest, once', async () => {
    const db = app().database.db;
    expect(await seedDemo(db, { semester: false, scanned: true })).toBe(true);
    const [row] = await db.select().from(homework).where(eq(homework.title, DEMO_SCANNED_HOMEWORK.title));
    expect(row).toBeDefined();
    const deps = {
      db,
      scan: app().scan.service,
      contexts: app().marking.contexts,
      papers: app().papers.papers,
      marking: app().marking.marking,
      log: { info: () => undefined },
      maxStudents: STUDENTS,
    };

    const first = await runDemoScans(deps);
    expect(first.stored).toBe(STUDENTS);
    const pages = await db.select().from(scanPages).where(eq(scanPages.homeworkId, row!.id));
    expect(pages).toHaveLength(STUDENTS);
    expect(pages.every((p) => p.status === 'recognised')).toBe(true);
    expect(pages.map((p) => p.imageId)).toContain(demoImageId(`${row!.id}:${'2026010101'}:0`));
    // The engine read every sheet without doubt: nothing waits in review.
    expect(await db.select().from(reviewItems).where(eq(reviewItems.homeworkId, row!.id))).toHaveLength(0);

    const scores = await db.select().from(questionScores).where(eq(questionScores.homeworkId, row!.id));
    const objective = scores.filter((s) => s.source === 'auto');
    // Six single, three multiple and three judge questions per student, scored from the bubbles.
    expect(objective).toHaveLength(12 * STUDENTS);
    expect(objective.some((s) => s.score > 0)).toBe(true);
    const marked = scores.filter((s) => s.source === 'marked');
    expect(marked).toHaveLength(2 * Math.floor(STUDENTS * 0.7));

    // Again (a restart): nothing is drawn or marked twice.
    const second = await runDemoScans(deps);
    expect(second).toEqual({ stored: 0, marked: 0 });
    const again = await db
      .select()
      .from(questionScores)
      .where(and(eq(questionScores.homeworkId, row!.id), eq(questionScores.source, 'marked')));
    expect(again).toHaveLength(marked.length);
  }, 180_000);
});
