import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOGNITION_PROGRESS_EVENT, type RecognitionProgress } from '../../../src/shared/contract/recognition';
import { answers, pageRecognitions, questionScores, reviewItems, scanPages } from '../../../server/db/schema';
import {
  type Broadcast,
  type Caller,
  createHomework,
  createMarkingApp,
  FakeEngine,
  type MarkingApp,
  recordBroadcasts,
  scanSheets,
  sheetOf,
  TWO_PAGE_PAPER,
  callerFor,
  type TestHomework,
  addTeacher,
  data,
} from './marking-helper';

describe('recognition queue', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let orgId: number;
  let broadcasts: Broadcast[];
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
    orgId = teacher.orgId;
    broadcasts = recordBroadcasts(app());
  });
  afterAll(async () => {
    await handle?.close();
  });

  async function statusOf(imageId: string) {
    const [row] = await app().database.db.select().from(scanPages).where(eq(scanPages.imageId, imageId));
    return row!.status;
  }

  async function scoresOf(homeworkId: number, studentId: number) {
    const rows = await app()
      .database.db.select()
      .from(questionScores)
      .where(and(eq(questionScores.homeworkId, homeworkId), eq(questionScores.studentId, studentId)));
    return Object.fromEntries(rows.map((row) => [row.questionNo, row.score]));
  }

  async function openItems(homeworkId: number) {
    return app()
      .database.db.select()
      .from(reviewItems)
      .where(and(eq(reviewItems.homeworkId, homeworkId), eq(reviewItems.status, 'open')))
      .orderBy(reviewItems.id);
  }

  describe('a clean per-student sheet', () => {
    let hw: TestHomework;
    let imageId: string;

    beforeAll(async () => {
      hw = await createHomework(app(), orgId);
      const student = hw.students[0]!;
      const ids = await scanSheets(app(), engine, teacher.token, hw.id, [
        sheetOf(hw.id, student.code, { 1: ['B'], 2: ['A'], 3: ['T'] }),
      ]);
      imageId = ids[0]!;
      await app().marking.queue.idle();
    });

    it('is recognised, and its objective answers are scored from the key (partial credit for a subset)', async () => {
      expect(await statusOf(imageId)).toBe('recognised');
      expect(await scoresOf(hw.id, hw.students[0]!.id)).toEqual({ 1: 3, 2: 2, 3: 2 });
    });

    it('stores the cut-out regions of manual questions and opens their marking', async () => {
      const rows = await app().database.db.select().from(answers).where(eq(answers.homeworkId, hw.id));
      const manual = rows.filter((row) => row.questionNo >= 4);
      expect(manual.map((row) => row.questionNo).sort()).toEqual([4, 5]);
      expect(manual.every((row) => row.regionPath?.startsWith(`regions/${orgId}/${imageId}/`))).toBe(true);
    });

    it('tells the school how recognition of the homework progresses', () => {
      const progress = broadcasts
        .filter((b) => b.event === RECOGNITION_PROGRESS_EVENT && (b.payload as RecognitionProgress).homeworkId === hw.id)
        .map((b) => ({ room: b.room, ...(b.payload as RecognitionProgress) }));
      expect(progress.at(-1)).toEqual({
        room: `org:${orgId}`,
        homeworkId: hw.id,
        stored: 1,
        recognised: 1,
        pending: 0,
        review: 0,
      });
    });

    it('moves the homework to marking once its pages are recognised', async () => {
      const overview = await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}` });
      expect(overview.json().data.status).toBe('marking');
    });
  });

  describe('problems the server raises', () => {
    it('sends a sheet of another homework to review instead of scores', async () => {
      const hw = await createHomework(app(), orgId);
      const other = await createHomework(app(), orgId);
      const [imageId] = await scanSheets(app(), engine, teacher.token, hw.id, [sheetOf(other.id, other.students[0]!.code)]);
      await app().marking.queue.idle();
      expect(await statusOf(imageId!)).toBe('review');
      expect((await openItems(hw.id)).map((item) => item.kind)).toEqual(['otherHomework']);
      expect(await scoresOf(other.id, other.students[0]!.id)).toEqual({});
      expect(await scoresOf(hw.id, other.students[0]!.id)).toEqual({});
    });

    it('reads the homework from the QR code in a batch without homework', async () => {
      const hw = await createHomework(app(), orgId);
      const [imageId] = await scanSheets(app(), engine, teacher.token, null, [
        sheetOf(hw.id, hw.students[1]!.code, { 1: ['B'] }),
      ]);
      await app().marking.queue.idle();
      expect(await statusOf(imageId!)).toBe('recognised');
      expect((await scoresOf(hw.id, hw.students[1]!.id))[1]).toBe(3);
    });

    it("sends a sheet read by QR to review when its homework is outside the scanning teacher's scope", async () => {
      const hw = await createHomework(app(), orgId);
      const student = hw.students[4]!;
      // A colleague with no duty in the homework's class or subject scans it in a "by QR" batch.
      const colleague = await addTeacher(app(), 'qr-colleague', '赵老师', orgId);
      const [imageId] = await scanSheets(app(), engine, colleague.token, null, [sheetOf(hw.id, student.code, { 1: ['B'] })]);
      await app().marking.queue.idle();
      expect(await statusOf(imageId!)).toBe('review');
      const items = await openItems(hw.id);
      expect(items.map((item) => item.kind)).toEqual(['outOfScope']);
      expect(items[0]!.detail).toContain(`homework ${hw.id}`);
      expect(await scoresOf(hw.id, student.id)).toEqual({});

      // The homework's teacher sees it in its review list and lets it count.
      const listed = data<{ id: number; kind: string; actions: string[] }[]>(
        await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/review` }),
      );
      const item = listed.find((row) => row.kind === 'outOfScope')!;
      expect(item.actions).toEqual(['accept', 'discard']);
      // Not the colleague who scanned it: deciding is for who works on the homework.
      expect(
        (await colleague({ method: 'POST', url: `/api/marking/review/${item.id}/resolve`, payload: { action: 'accept' } }))
          .statusCode,
      ).toBe(403);
      const accepted = await teacher({
        method: 'POST',
        url: `/api/marking/review/${item.id}/resolve`,
        payload: { action: 'accept' },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      await app().marking.queue.idle();
      expect(await statusOf(imageId!)).toBe('recognised');
      expect((await scoresOf(hw.id, student.id))[1]).toBe(3);
    });

    it('counts a sheet read by QR at once for a scanning teacher who may work on its homework', async () => {
      const hw = await createHomework(app(), orgId);
      const student = hw.students[5]!;
      // The homework's owner scans: no exception (the check is not a blanket refusal of "by QR").
      const [imageId] = await scanSheets(app(), engine, teacher.token, null, [sheetOf(hw.id, student.code, { 1: ['B'] })]);
      await app().marking.queue.idle();
      expect(await statusOf(imageId!)).toBe('recognised');
      expect(await openItems(hw.id)).toEqual([]);
    });

    it('holds a second scan of the same sheet page as a duplicate', async () => {
      const hw = await createHomework(app(), orgId);
      const code = hw.students[2]!.code;
      const [first, second] = await scanSheets(app(), engine, teacher.token, hw.id, [
        sheetOf(hw.id, code, { 1: ['B'] }),
        sheetOf(hw.id, code, { 1: ['C'] }),
      ]);
      await app().marking.queue.idle();
      // Two workers may read them in either order: the one settled first counts, the other waits for a person.
      const statuses = [await statusOf(first!), await statusOf(second!)];
      expect([...statuses].sort()).toEqual(['recognised', 'review']);
      const [item] = await openItems(hw.id);
      expect(item!.kind).toBe('duplicatePage');
      const [held] = await app().database.db.select().from(pageRecognitions).where(eq(pageRecognitions.id, item!.recognitionId));
      expect(held!.imageId).toBe(statuses[0] === 'review' ? first : second);
      expect((await scoresOf(hw.id, hw.students[2]!.id))[1]).toBe(statuses[0] === 'recognised' ? 3 : 0);
    });

    it('asks who wrote a generic sheet', async () => {
      const hw = await createHomework(app(), orgId);
      const [imageId] = await scanSheets(app(), engine, teacher.token, hw.id, [sheetOf(hw.id, undefined, { 1: ['B'] })]);
      await app().marking.queue.idle();
      expect(await statusOf(imageId!)).toBe('review');
      expect((await openItems(hw.id)).map((item) => item.kind)).toEqual(['unknownStudent']);
    });

    it('keeps a low-confidence or double-marked answer out of scores, the rest of the page counts', async () => {
      const hw = await createHomework(app(), orgId);
      const student = hw.students[3]!;
      await scanSheets(app(), engine, teacher.token, hw.id, [
        { ...sheetOf(hw.id, student.code, { 1: ['A', 'B'], 2: ['A', 'C'], 3: ['F'] }), confidence: { 3: 0.4 } },
      ]);
      await app().marking.queue.idle();
      const kinds = (await openItems(hw.id)).map((item) => [item.kind, item.questionNo]);
      expect(kinds).toEqual(
        expect.arrayContaining([
          ['multipleMarks', 1],
          ['lowConfidence', 3],
        ]),
      );
      expect(await scoresOf(hw.id, student.id)).toEqual({ 2: 4 });
    });

    it('raises a missing page once the queue drains and a two-page sheet lacks one', async () => {
      const hw = await createHomework(app(), orgId, TWO_PAGE_PAPER);
      const template = await teacher({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet/template` });
      const pageCount = (template.json().data.pages as unknown[]).length;
      expect(pageCount).toBeGreaterThan(1);
      const later = Array.from({ length: pageCount - 1 }, (_, i) => i + 2);
      const student = hw.students[4]!;
      await scanSheets(app(), engine, teacher.token, hw.id, [sheetOf(hw.id, student.code, {}, 1)]);
      await app().marking.queue.idle();
      const items = await openItems(hw.id);
      expect(items.map((item) => [item.kind, item.pageNo, item.studentId])).toEqual(
        later.map((page) => ['missingPage', page, student.id]),
      );

      await scanSheets(
        app(),
        engine,
        teacher.token,
        hw.id,
        later.map((page) => sheetOf(hw.id, student.code, {}, page)),
      );
      await app().marking.queue.idle();
      expect(await openItems(hw.id)).toEqual([]);
    });

    it('lets a page that failed wait before its next attempt, so a passing fault does not use them up', async () => {
      app().marking.queue.setRetryBackoff(60);
      try {
        const hw = await createHomework(app(), orgId);
        const before = engine.calls;
        const [imageId] = await scanSheets(app(), engine, teacher.token, hw.id, [{ qr: null, fail: true }]);
        await app().marking.queue.idle();
        expect(engine.calls - before).toBe(1);
        expect(await statusOf(imageId!)).toBe('recognising');
        const [rec] = await app()
          .database.db.select()
          .from(pageRecognitions)
          .innerJoin(scanPages, eq(scanPages.id, pageRecognitions.scanPageId))
          .where(eq(scanPages.imageId, imageId!));
        expect(rec!.page_recognitions.claimToken).toBeNull();
        expect(rec!.page_recognitions.leaseUntil!.getTime()).toBeGreaterThan(Date.now() + 50_000);
      } finally {
        app().marking.queue.setRetryBackoff(0);
      }
    });

    it('takes a page the engine cannot read out of the queue after three attempts, into review', async () => {
      const hw = await createHomework(app(), orgId);
      const before = engine.calls;
      const [imageId] = await scanSheets(app(), engine, teacher.token, hw.id, [{ qr: null, fail: true }]);
      await app().marking.queue.idle();
      expect(engine.calls - before).toBe(3);
      expect(await statusOf(imageId!)).toBe('failed');
      const [rec] = await app().database.db.select().from(pageRecognitions).where(eq(pageRecognitions.imageId, imageId!));
      expect(rec!.lastError).toContain('breaks the engine');
      expect((await openItems(hw.id)).map((item) => item.kind)).toEqual(['fiducialsNotFound']);
    });
  });
});
