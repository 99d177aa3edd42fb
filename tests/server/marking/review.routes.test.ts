import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import {
  MARKING_MESSAGES,
  type PageReadingView,
  pageReadingViewSchema,
  REVIEW_BULK_MAX,
  reviewBulkResultSchema,
  type ReviewItem,
  reviewItemSchema,
  type ScoreTable,
} from '../../../src/shared/contract/marking';
import { and, eq } from 'drizzle-orm';
import { pageRecognitions, reviewItems, students } from '../../../server/db/schema';
import { REVIEW_MESSAGES } from '../../../server/services/marking/review.service';
import { failure } from '../accounts-helper';
import type { createOtherSchool } from '../papers/papers-helper';
import {
  type Caller,
  createHomework,
  data,
  FakeEngine,
  type MarkingApp,
  markingSchool,
  reviewItemsFor,
  markNext,
  scanAndRecognise,
  type scanSheets,
  sheetOf,
  type TestHomework,
  TWO_PAGE_PAPER,
} from './marking-helper';

describe('review endpoints', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  const app = () => handle.app;

  beforeAll(async () => {
    ({ handle, teacher, other } = await markingSchool(engine));
  });
  afterAll(async () => {
    await handle?.close();
  });

  const scan = (homeworkId: number | null, sheets: Parameters<typeof scanSheets>[4]) =>
    scanAndRecognise(app(), engine, teacher.token, homeworkId, sheets);

  const reviewOf = (homeworkId: number, status: 'open' | 'resolved' = 'open') => reviewItemsFor(teacher, homeworkId, status);

  function resolve(itemId: number, payload: unknown, caller: Caller | typeof other.call = teacher) {
    return caller({ method: 'POST', url: `/api/marking/review/${itemId}/resolve`, payload: payload as object });
  }

  async function scoresOf(homeworkId: number, studentId: number) {
    const table = data<ScoreTable>(await teacher({ method: 'GET', url: `/api/marking/homework/${homeworkId}/scores` }));
    return table.students.find((s) => s.studentId === studentId)!;
  }

  describe('listing', () => {
    let hw: TestHomework;
    beforeAll(async () => {
      hw = await createHomework(app(), teacher.orgId);
      await scan(hw.id, [sheetOf(hw.id, undefined, { 1: ['B'] })]);
    });

    it('lists the open items of a homework with the page, student and reading', async () => {
      const [item] = await reviewOf(hw.id);
      expect(item).toMatchObject({ homeworkId: hw.id, kind: 'unknownStudent', status: 'open', page: 1, student: null });
      expect(await reviewOf(hw.id, 'resolved')).toEqual([]);
    });

    it('answers 400 for an unknown status and 404 for another school', async () => {
      expect(failure(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/review?status=all` })).status).toBe(400);
      expect(failure(await other.call({ method: 'GET', url: `/api/marking/homework/${hw.id}/review` })).status).toBe(404);
    });

    it("answers 404 when another school resolves this school's item", async () => {
      const [item] = await reviewOf(hw.id);
      expect(failure(await resolve(item!.id, { action: 'discard' }, other.call))).toEqual({
        status: 404,
        msg: '很抱歉，资源未找到',
      });
    });

    it('lists an unreadable page of a "by QR" batch under the homework of the batch\'s other sheets', async () => {
      const byQr = await createHomework(app(), teacher.orgId);
      await scan(null, [sheetOf(byQr.id, byQr.students[0]!.code), { qr: null }]);
      const items = await reviewOf(byQr.id);
      expect(items.map((item) => [item.kind, item.homeworkId])).toEqual([['qrUnreadable', byQr.id]]);
      // The teacher names the student; the page is read again with the homework's template and counts.
      const resolved = reviewItemSchema.parse(
        data(await resolve(items[0]!.id, { action: 'assignStudent', studentId: byQr.students[1]!.id })),
      );
      expect(resolved).toMatchObject({ status: 'resolved', homeworkId: byQr.id });
      await app().marking.queue.idle();
      expect((await scoresOf(byQr.id, byQr.students[1]!.id)).scores['1']).toBe(0);
      expect(await reviewOf(byQr.id)).toEqual([]);
    });
  });

  describe('resolving', () => {
    it('assigns a generic sheet to a student, which scores the page; a second resolution is a 409', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const student = hw.students[0]!;
      await scan(hw.id, [sheetOf(hw.id, undefined, { 1: ['B'], 2: ['A', 'C'] })]);
      const [item] = await reviewOf(hw.id);
      expect((await scoresOf(hw.id, student.id)).scores['1']).toBeNull();

      const resolved = reviewItemSchema.parse(data(await resolve(item!.id, { action: 'assignStudent', studentId: student.id })));
      expect(resolved).toMatchObject({ status: 'resolved', resolution: `已指定学生：${student.name}（第 1 页）` });
      expect(resolved.student).toEqual({ id: student.id, name: student.name, code: student.code });
      const scores = await scoresOf(hw.id, student.id);
      expect(scores.scores).toMatchObject({ 1: 3, 2: 4 });

      expect(failure(await resolve(item!.id, { action: 'discard' }))).toEqual({
        status: 409,
        msg: MARKING_MESSAGES.alreadyResolved,
      });
    });

    it('refuses a student of another school, and actions that do not fit the problem', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      await scan(hw.id, [sheetOf(hw.id, undefined)]);
      const [item] = await reviewOf(hw.id);
      const [foreign] = await app()
        .database.db.insert(students)
        .values({ orgId: other.orgId, classId: other.classId, name: '外校生', code: '99990001' })
        .returning();
      expect(failure(await resolve(item!.id, { action: 'assignStudent', studentId: foreign!.id }))).toEqual({
        status: 400,
        msg: REVIEW_MESSAGES.unknownStudent,
      });
      expect(failure(await resolve(item!.id, { action: 'setAnswer', questionNo: 1, labels: ['A'] })).msg).toBe(
        REVIEW_MESSAGES.cannotSetAnswer,
      );
      expect(failure(await resolve(item!.id, { action: 'accept' })).msg).toBe(REVIEW_MESSAGES.cannotAccept);
    });

    it.each([
      [{}, '请求参数错误'],
      [{ action: 'rename' }, '请求参数错误'],
      [{ action: 'assignStudent' }, '请求参数错误：studentId：不能为空'],
      [{ action: 'setAnswer', questionNo: 0, labels: [] }, '请求参数错误'],
      [{ action: 'setAnswer', questionNo: 1, labels: ['ABC'] }, '请求参数错误'],
    ])('answers 400 for the payload %j', async (payload, message) => {
      const hw = await createHomework(app(), teacher.orgId);
      await scan(hw.id, [sheetOf(hw.id, undefined)]);
      const [item] = await reviewOf(hw.id);
      const answer = failure(await resolve(item!.id, payload));
      expect(answer.status).toBe(400);
      expect(answer.msg.startsWith(message)).toBe(true);
    });

    describe('a page with doubtful bubbles', () => {
      let hw: TestHomework;
      let items: ReviewItem[];
      const student = () => hw.students[1]!;

      beforeAll(async () => {
        hw = await createHomework(app(), teacher.orgId);
        await scan(hw.id, [
          { ...sheetOf(hw.id, hw.students[1]!.code, { 1: ['A', 'B'], 2: ['A'], 3: ['F'] }), confidence: { 2: 0.3, 3: 0.5 } },
        ]);
        items = await reviewOf(hw.id);
      });

      it('lists one item per doubtful question with its reading', () => {
        expect(items.map((item) => [item.kind, item.questionNo])).toEqual([
          ['multipleMarks', 1],
          ['lowConfidence', 2],
          ['lowConfidence', 3],
        ]);
        expect(items[0]!.reading).toMatchObject({ questionNo: 1, marked: ['A', 'B'] });
      });

      it('checks corrected labels against the question', async () => {
        const first = items[0]!;
        expect(failure(await resolve(first.id, { action: 'setAnswer', questionNo: 1, labels: ['Z'] })).msg).toBe('选项不存在：Z');
        expect(failure(await resolve(first.id, { action: 'setAnswer', questionNo: 1, labels: ['A', 'B'] })).msg).toBe(
          REVIEW_MESSAGES.singleLabel,
        );
        expect(failure(await resolve(first.id, { action: 'setAnswer', questionNo: 2, labels: ['B'] })).msg).toBe(
          REVIEW_MESSAGES.questionMismatch,
        );
        expect(failure(await resolve(first.id, { action: 'discard' })).msg).toBe(REVIEW_MESSAGES.cannotDiscardQuestion);
      });

      it('re-scores the question when the teacher corrects or confirms the reading', async () => {
        expect((await scoresOf(hw.id, student().id)).scores).toMatchObject({ 1: null, 2: null, 3: null });
        data(await resolve(items[0]!.id, { action: 'setAnswer', questionNo: 1, labels: ['b'] }));
        data(await resolve(items[1]!.id, { action: 'accept' }));
        expect((await scoresOf(hw.id, student().id)).scores).toMatchObject({ 1: 3, 2: 2, 3: null });
        const last = reviewItemSchema.parse(
          data(await resolve(items[2]!.id, { action: 'setAnswer', questionNo: 3, labels: ['T'] })),
        );
        expect(last.resolution).toBe('已更正为：T');
        const row = await scoresOf(hw.id, student().id);
        expect(row.scores).toMatchObject({ 1: 3, 2: 2, 3: 2 });
        expect(row.answers).toMatchObject({ 1: ['B'], 2: ['A'], 3: ['T'] });
        expect(await reviewOf(hw.id)).toEqual([]);
      });
    });

    it('lets the teacher answer a question the engine could not read at all', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const student = hw.students[7]!;
      await scan(hw.id, [{ ...sheetOf(hw.id, student.code, { 1: ['B'] }), unread: [2] }]);
      const [item] = await reviewOf(hw.id);
      expect(item).toMatchObject({ kind: 'lowConfidence', questionNo: 2 });
      expect(item!.reading).toEqual({
        questionNo: 2,
        fills: ['A', 'B', 'C', 'D'].map((label) => ({ label, fill: 0 })),
        marked: [],
        confidence: 0,
      });
      data(await resolve(item!.id, { action: 'setAnswer', questionNo: 2, labels: ['C'] }));
      expect((await scoresOf(hw.id, student.id)).scores).toMatchObject({ 1: 3, 2: 2 });
    });

    it('moves a sheet of another homework there on accept', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const target = await createHomework(app(), teacher.orgId);
      const student = target.students[2]!;
      await scan(hw.id, [sheetOf(target.id, student.code, { 1: ['B'] })]);
      const [item] = await reviewOf(hw.id);
      expect(item!.kind).toBe('otherHomework');
      expect(item!.actions).toEqual(['accept', 'discard']);
      const resolved = reviewItemSchema.parse(data(await resolve(item!.id, { action: 'accept' })));
      expect(resolved.actions).toEqual([]);
      expect(resolved.resolution).toMatch(/^已移至作业：/);
      expect((await scoresOf(target.id, student.id)).scores['1']).toBe(3);
      expect((await scoresOf(hw.id, student.id)).scores['1']).toBeNull();
    });

    it('does not offer to move a sheet whose QR names a homework outside the school', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const student = hw.students[7]!;
      await scan(hw.id, [sheetOf(2_000_000_000, student.code, { 1: ['B'] })]);
      const [item] = await reviewOf(hw.id);
      expect(item!.kind).toBe('otherHomework');
      expect(item!.actions).toEqual(['discard']);
      expect(failure(await resolve(item!.id, { action: 'accept' })).msg).toBe(REVIEW_MESSAGES.notOurHomework);
      data(await resolve(item!.id, { action: 'discard' }));
    });

    it('drops a discarded page from the review list and from scores', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const target = await createHomework(app(), teacher.orgId);
      await scan(hw.id, [sheetOf(target.id, target.students[2]!.code, { 1: ['B'] })]);
      const [item] = await reviewOf(hw.id);
      expect(reviewItemSchema.parse(data(await resolve(item!.id, { action: 'discard' }))).resolution).toBe('已作废此页');
      expect(await reviewOf(hw.id)).toEqual([]);
      const view = pageReadingViewSchema.parse(
        data(await teacher({ method: 'GET', url: `/api/marking/pages/${item!.imageId}/reading` })),
      );
      expect(view.status).toBe('discarded');
      expect((await scoresOf(target.id, target.students[2]!.id)).scores['1']).toBeNull();
    });

    it('replaces the counted page by its re-scan on accept, or keeps it on discard', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const [a, b] = [hw.students[3]!, hw.students[4]!];
      await scan(hw.id, [sheetOf(hw.id, a.code, { 1: ['B'] }), sheetOf(hw.id, b.code, { 1: ['B'] })]);
      await scan(hw.id, [sheetOf(hw.id, a.code, { 1: ['C'] }), sheetOf(hw.id, b.code, { 1: ['C'] })]);
      const items = await reviewOf(hw.id);
      expect(items.map((item) => item.kind)).toEqual(['duplicatePage', 'duplicatePage']);
      const first = items.find((item) => item.student?.id === a.id);
      const second = items.find((item) => item.student?.id === b.id);

      data(await resolve(first!.id, { action: 'accept' }));
      data(await resolve(second!.id, { action: 'discard' }));
      expect((await scoresOf(hw.id, a.id)).scores['1']).toBe(0);
      expect((await scoresOf(hw.id, b.id)).scores['1']).toBe(3);
      expect(await reviewOf(hw.id)).toEqual([]);
    });

    it('keeps the marks given to the replaced page when a duplicate re-scan is accepted', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const student = hw.students[6]!;
      data(
        await teacher({
          method: 'PUT',
          url: `/api/marking/homework/${hw.id}/assignments`,
          payload: {
            questions: [4, 5].map((no) => ({ questionNo: no, userIds: [teacher.userId], doubleMarking: false, tolerance: 0 })),
          },
        }),
      );
      await scan(hw.id, [sheetOf(hw.id, student.code, { 1: ['B'] })]);
      await markNext(teacher, hw.id, 4, 3);
      await markNext(teacher, hw.id, 5, 7);
      expect((await scoresOf(hw.id, student.id)).scores).toMatchObject({ 1: 3, 4: 3, 5: 7 });

      await scan(hw.id, [sheetOf(hw.id, student.code, { 1: ['C'] })]);
      const [item] = await reviewOf(hw.id);
      expect(item!.kind).toBe('duplicatePage');
      data(await resolve(item!.id, { action: 'accept' }));
      // The objective answer is read off the new page; the marked questions keep their marks.
      expect((await scoresOf(hw.id, student.id)).scores).toMatchObject({ 1: 0, 4: 3, 5: 7 });
      const overview = data<{ questions: { questionNo: number; done: number; total: number }[] }>(
        await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}` }),
      );
      expect(overview.questions.filter((q) => q.questionNo >= 4).map((q) => [q.done, q.total])).toEqual([
        [1, 1],
        [1, 1],
      ]);
    });

    it('scores the questions of a missing page 0 when the teacher accepts it as missing', async () => {
      const hw = await createHomework(app(), teacher.orgId, TWO_PAGE_PAPER);
      const template = answerSheetTemplateSchema.parse(
        data(await teacher({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet/template` })),
      );
      const pageOf = (no: number) =>
        template.pages.find((p) => p.objective.some((o) => o.questionNo === no) || p.regions.some((r) => r.questionNo === no))!
          .page;
      const student = hw.students[5]!;
      await scan(hw.id, [sheetOf(hw.id, student.code, { 1: ['B'] }, 1)]);
      const items = await reviewOf(hw.id);
      expect(items.map((item) => [item.kind, item.page, item.student?.id])).toEqual(
        template.pages.slice(1).map((p) => ['missingPage', p.page, student.id]),
      );
      expect(failure(await resolve(items[0]!.id, { action: 'discard' })).msg).toBe(REVIEW_MESSAGES.cannotDiscardMissing);
      for (const item of items) data(await resolve(item.id, { action: 'accept' }));
      const row = await scoresOf(hw.id, student.id);
      const expected = Object.fromEntries(
        TWO_PAGE_PAPER.map((q, i) => {
          const no = i + 1;
          if (pageOf(no) > 1) return [String(no), 0];
          if (q.type === 'blank' || q.type === 'subjective') return [String(no), null];
          return [String(no), no === 1 ? 3 : 0];
        }),
      );
      expect(row.scores).toEqual(expected);
      expect(await reviewOf(hw.id)).toEqual([]);
    });
  });

  describe('bulk (批量确认 / 批量作废)', () => {
    function bulk(payload: unknown, caller: Caller | typeof other.call = teacher) {
      return caller({ method: 'POST', url: '/api/marking/review/bulk', payload: payload as object });
    }
    const parse = (response: Awaited<ReturnType<typeof bulk>>) => reviewBulkResultSchema.parse(data(response));

    it('says what would happen, then discards the pages the action fits and skips the others', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const target = await createHomework(app(), teacher.orgId);
      await scan(hw.id, [
        sheetOf(target.id, target.students[0]!.code, { 1: ['B'] }),
        sheetOf(target.id, target.students[1]!.code, { 1: ['B'] }),
        { ...sheetOf(hw.id, hw.students[2]!.code, { 1: ['A', 'B'] }) },
      ]);
      const items = await reviewOf(hw.id);
      expect(items.map((item) => item.kind)).toEqual(['otherHomework', 'otherHomework', 'multipleMarks']);
      const itemIds = items.map((item) => item.id);

      const preview = parse(await bulk({ itemIds, action: 'discard', dryRun: true }));
      expect(preview).toEqual({
        marksLost: 0,
        results: [
          { itemId: itemIds[0], outcome: 'ready', message: null },
          { itemId: itemIds[1], outcome: 'ready', message: null },
          { itemId: itemIds[2], outcome: 'skipped', message: MARKING_MESSAGES.bulkNotApplicable },
        ],
      });
      expect(await reviewOf(hw.id)).toHaveLength(3);

      const applied = parse(await bulk({ itemIds, action: 'discard' }));
      expect(applied.results.map((r) => [r.outcome, r.message])).toEqual([
        ['resolved', '已作废此页'],
        ['resolved', '已作废此页'],
        ['skipped', MARKING_MESSAGES.bulkNotApplicable],
      ]);
      expect((await reviewOf(hw.id)).map((item) => item.id)).toEqual([itemIds[2]]);
      // A second run reports them as already resolved and changes nothing.
      expect(parse(await bulk({ itemIds: itemIds.slice(0, 1), action: 'discard' })).results[0]).toMatchObject({
        outcome: 'skipped',
        message: MARKING_MESSAGES.alreadyResolved,
      });
    });

    it('confirms question readings in bulk, which scores them', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const student = hw.students[3]!;
      await scan(hw.id, [{ ...sheetOf(hw.id, student.code, { 1: ['B'], 2: ['A'] }), confidence: { 1: 0.3, 2: 0.3 } }]);
      const items = await reviewOf(hw.id);
      expect(items.map((item) => item.kind)).toEqual(['lowConfidence', 'lowConfidence']);
      const result = parse(await bulk({ itemIds: items.map((item) => item.id), action: 'accept' }));
      expect(result.results.map((r) => r.outcome)).toEqual(['resolved', 'resolved']);
      expect((await scoresOf(hw.id, student.id)).scores).toMatchObject({ 1: 3, 2: 2 });
    });

    it('refuses to drop marks the teacher did not confirm, and drops exactly the confirmed ones', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const student = hw.students[8]!;
      data(
        await teacher({
          method: 'PUT',
          url: `/api/marking/homework/${hw.id}/assignments`,
          payload: { questions: [{ questionNo: 4, userIds: [teacher.userId], doubleMarking: false, tolerance: 0 }] },
        }),
      );
      await scan(hw.id, [sheetOf(hw.id, student.code, { 1: ['B'] })]);
      await markNext(teacher, hw.id, 4, 3);
      // A page-level problem raised on the counted, marked page (e.g. it turned out to be a blank test sheet).
      const [counted] = await app()
        .database.db.select()
        .from(pageRecognitions)
        .where(and(eq(pageRecognitions.homeworkId, hw.id), eq(pageRecognitions.studentId, student.id)));
      const [raised] = await app()
        .database.db.insert(reviewItems)
        .values({ orgId: teacher.orgId, homeworkId: hw.id, recognitionId: counted!.id, kind: 'blankPage', studentId: student.id })
        .returning();

      const preview = parse(await bulk({ itemIds: [raised!.id], action: 'discard', dryRun: true }));
      expect(preview.marksLost).toBe(1);
      expect(failure(await bulk({ itemIds: [raised!.id], action: 'discard' }))).toEqual({
        status: 409,
        msg: MARKING_MESSAGES.bulkMarksLost(1),
      });
      expect((await scoresOf(hw.id, student.id)).scores['4']).toBe(3);

      const applied = parse(await bulk({ itemIds: [raised!.id], action: 'discard', marksLost: 1 }));
      expect(applied).toMatchObject({ marksLost: 1, results: [{ outcome: 'resolved' }] });
      expect((await scoresOf(hw.id, student.id)).scores['4']).toBeNull();
    });

    it("answers 400 for an empty or oversized selection, and reports another school's items as not found", async () => {
      expect(failure(await bulk({ itemIds: [], action: 'discard' })).status).toBe(400);
      expect(failure(await bulk({ itemIds: [1], action: 'assignStudent' })).status).toBe(400);
      const tooMany = Array.from({ length: REVIEW_BULK_MAX + 1 }, (_, i) => i + 1);
      expect(failure(await bulk({ itemIds: tooMany, action: 'discard' })).status).toBe(400);

      const hw = await createHomework(app(), teacher.orgId);
      await scan(hw.id, [sheetOf(hw.id, undefined)]);
      const [item] = await reviewOf(hw.id);
      const answer = parse(await bulk({ itemIds: [item!.id], action: 'discard' }, other.call));
      expect(answer.results).toEqual([{ itemId: item!.id, outcome: 'failed', message: '该异常不存在' }]);
      expect(await reviewOf(hw.id)).toHaveLength(1);
    });
  });

  describe('page reading', () => {
    it('shows what the engine read off a page of the school, and 404 elsewhere', async () => {
      const hw = await createHomework(app(), teacher.orgId);
      const [imageId] = await scan(hw.id, [sheetOf(hw.id, hw.students[6]!.code, { 1: ['D'] })]);
      const view: PageReadingView = pageReadingViewSchema.parse(
        data(await teacher({ method: 'GET', url: `/api/marking/pages/${imageId}/reading` })),
      );
      expect(view).toMatchObject({ imageId, homeworkId: hw.id, status: 'recognised' });
      expect(view.reading?.objective.find((o) => o.questionNo === 1)?.marked).toEqual(['D']);
      expect(failure(await other.call({ method: 'GET', url: `/api/marking/pages/${imageId}/reading` })).status).toBe(404);
      expect(failure(await teacher({ method: 'GET', url: '/api/marking/pages/not-a-uuid/reading' })).status).toBe(400);
    });
  });
});
