/**
 * Missing sheet pages (缺少答题卡页) and who counts as present: a page that is not surely this homework's
 * page of its student makes nobody present, and a student whose last page leaves the homework has their
 * missing-page items withdrawn, since confirming one would score an absent student 0.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import { reviewBulkResultSchema } from '../../../src/shared/contract/marking';
import { reviewItems } from '../../../server/db/schema';
import {
  type Caller,
  createHomework,
  data,
  FakeEngine,
  type MarkingApp,
  markingSchool,
  reviewItemsFor,
  scanAndRecognise,
  type scanSheets,
  sheetOf,
  type TestHomework,
  TWO_PAGE_PAPER,
} from './marking-helper';

/** What a withdrawn missing-page item says (the student has no page of the homework left). */
const WITHDRAWN = '已撤销（该生已无本次作业的答题卡页）';

describe('missing sheet pages', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  const app = () => handle.app;

  beforeAll(async () => {
    ({ handle, teacher } = await markingSchool(engine));
  });
  afterAll(async () => {
    await handle?.close();
  });

  const scan = (homeworkId: number | null, sheets: Parameters<typeof scanSheets>[4]) =>
    scanAndRecognise(app(), engine, teacher.token, homeworkId, sheets);

  const reviewOf = (homeworkId: number, status: 'open' | 'resolved' = 'open') => reviewItemsFor(teacher, homeworkId, status);

  const resolve = (itemId: number, payload: object) =>
    teacher({ method: 'POST', url: `/api/marking/review/${itemId}/resolve`, payload });

  /** The missing-page items of one student, as [page, status, resolution]. */
  async function missingOf(homeworkId: number, studentId: number) {
    const rows = await app()
      .database.db.select()
      .from(reviewItems)
      .where(
        and(eq(reviewItems.homeworkId, homeworkId), eq(reviewItems.studentId, studentId), eq(reviewItems.kind, 'missingPage')),
      )
      .orderBy(reviewItems.pageNo);
    return rows.map((row) => [row.pageNo, row.status, row.resolution]);
  }

  let hw: TestHomework;
  /** The sheet pages after the first. */
  let later: number[];
  beforeAll(async () => {
    hw = await createHomework(app(), teacher.orgId, TWO_PAGE_PAPER);
    const template = answerSheetTemplateSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet/template` })),
    );
    later = template.pages.slice(1).map((page) => page.page);
    expect(later.length).toBeGreaterThan(0);
  });

  it("does not count a student present for a page of another homework held in review, so none of this homework's pages is missing", async () => {
    const target = await createHomework(app(), teacher.orgId, TWO_PAGE_PAPER);
    const [away, present] = [hw.students[0]!, hw.students[1]!];
    // The queue drains with the other homework's page still waiting in review.
    await scan(hw.id, [sheetOf(target.id, away.code, { 1: ['B'] }, 1), sheetOf(hw.id, present.code, { 1: ['B'] }, 1)]);

    const items = await reviewOf(hw.id);
    expect(items.map((item) => [item.kind, item.page, item.student?.id])).toEqual([
      ['otherHomework', 1, away.id],
      ...later.map((page) => ['missingPage', page, present.id]),
    ]);
    expect(await missingOf(hw.id, away.id)).toEqual([]);
  });

  it('withdraws the missing pages of a student whose only page is discarded, never those of a student with a page left or resolved by a person', async () => {
    const [gone, kept, decided, bulked, replaced] = [
      hw.students[2]!,
      hw.students[3]!,
      hw.students[4]!,
      hw.students[5]!,
      hw.students[6]!,
    ];
    // A page whose QR is read but whose corners are not found is the student's page: it counts them present.
    const unlocated = (code: string) => ({
      ...sheetOf(hw.id, code, {}, 1),
      problems: [{ kind: 'fiducialsNotFound' as const, detail: 'corners not found' }],
    });
    await scan(hw.id, [
      unlocated(gone.code),
      sheetOf(hw.id, kept.code, { 1: ['B'] }, 1),
      unlocated(kept.code),
      unlocated(decided.code),
      unlocated(bulked.code),
      sheetOf(hw.id, replaced.code, { 1: ['B'] }, 1),
    ]);
    // A re-scan of a counted page is the student's page too.
    await scan(hw.id, [sheetOf(hw.id, replaced.code, { 1: ['C'] }, 1)]);
    const items = await reviewOf(hw.id);
    const itemOf = (kind: string, studentId: number) => items.filter((i) => i.kind === kind && i.student?.id === studentId);
    for (const student of [gone, kept, decided, bulked, replaced]) {
      expect(itemOf('missingPage', student.id).map((item) => item.page)).toEqual(later);
      expect(await missingOf(hw.id, student.id)).toEqual(later.map((page) => [page, 'open', null]));
    }
    // A person scores one missing page of `decided` 0 before the page is discarded.
    data(await resolve(itemOf('missingPage', decided.id)[0]!.id, { action: 'accept' }));

    for (const student of [gone, kept, decided]) {
      data(await resolve(itemOf('fiducialsNotFound', student.id)[0]!.id, { action: 'discard' }));
    }
    const bulk = reviewBulkResultSchema.parse(
      data(
        await teacher({
          method: 'POST',
          url: '/api/marking/review/bulk',
          payload: { itemIds: itemOf('fiducialsNotFound', bulked.id).map((item) => item.id), action: 'discard' },
        }),
      ),
    );
    expect(bulk.results.map((r) => r.outcome)).toEqual(['resolved']);
    // Replaced by its re-scan: the student keeps a page.
    data(await resolve(itemOf('duplicatePage', replaced.id)[0]!.id, { action: 'accept' }));

    const withdrawn = (pages: number[]) => pages.map((page) => [page, 'resolved', WITHDRAWN]);
    expect(await missingOf(hw.id, gone.id)).toEqual(withdrawn(later));
    expect(await missingOf(hw.id, bulked.id)).toEqual(withdrawn(later));
    // Still have a counted first page: their missing pages stay for the teacher.
    expect(await missingOf(hw.id, kept.id)).toEqual(later.map((page) => [page, 'open', null]));
    expect(await missingOf(hw.id, replaced.id)).toEqual(later.map((page) => [page, 'open', null]));
    expect(await missingOf(hw.id, decided.id)).toEqual([
      [later[0], 'resolved', '已按缺页处理（该页各题记 0 分）'],
      ...withdrawn(later.slice(1)),
    ]);
    const mine = new Set([gone.id, kept.id, decided.id, bulked.id, replaced.id]);
    expect(
      (await reviewOf(hw.id)).filter((item) => mine.has(item.student?.id ?? 0)).map((item) => [item.kind, item.student?.id]),
    ).toEqual([...later.map(() => ['missingPage', kept.id]), ...later.map(() => ['missingPage', replaced.id])]);
    const resolved = await reviewOf(hw.id, 'resolved');
    expect(resolved.find((item) => item.kind === 'missingPage' && item.student?.id === gone.id)?.resolution).toBe(WITHDRAWN);

    // The student hands in the first page after all: their missing pages are raised again.
    await scan(hw.id, [sheetOf(hw.id, gone.code, { 1: ['B'] }, 1)]);
    expect(await missingOf(hw.id, gone.id)).toEqual(later.map((page) => [page, 'open', null]));
  });
});
