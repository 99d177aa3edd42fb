/**
 * Calibration across a student's sheet at settlement: a question that page 2 of a sheet held only for
 * a doubt of its own calibration (few bubbles to calibrate from) is released and scored with page 1's
 * calibration, whichever page arrives first; never when the pages disagree; never a question a person
 * decided; and settling again changes nothing.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageCalibration } from '../../../src/shared/contract/recognition';
import { answers, pageRecognitions, questionScores, reviewItems } from '../../../server/db/schema';
import type { Db } from '../../../server/db/client';
import { settlePage } from '../../../server/services/marking/page-settlement';
import { CALIBRATED_RESOLUTION } from '../../../server/services/marking/student-sheet-calibration';
import {
  type Caller,
  callerFor,
  createHomework,
  createMarkingApp,
  data,
  FakeEngine,
  type FakeSheet,
  type MarkingApp,
  type QuestionSpec,
  scanAndRecognise,
  sheetOf,
  type TestHomework,
} from './marking-helper';

/** 120 single-choice questions fill page 1; page 2 has two judge questions (121 对, 122 错) and a subjective one. */
const SHEET_PAPER: QuestionSpec[] = [
  ...Array.from({ length: 120 }, (): QuestionSpec => ({ type: 'single', answer: ['A'], score: 1 })),
  { type: 'judge', answer: ['错'], score: 2 },
  { type: 'judge', answer: ['对'], score: 2 },
  { type: 'subjective', answer: ['参考答案'], score: 10 },
];

/** Page 1: 480 bubbles of a careful student's light marks, split clearly. */
const PAGE_ONE: PageCalibration = {
  bubbles: 480,
  marks: 118,
  emptyInk: { level: 0.002, spread: 0.004 },
  emptyFill: { level: 0.01, spread: 0.004 },
  emptySpecks: { level: 0, spread: 1.5 },
  ink: { threshold: 0.2, emptyMax: 0.03, markMin: 0.4 },
  fill: { threshold: 0.3, emptyMax: 0.05, markMin: 0.45 },
  markFill: 0.6,
  style: { fills: 0, ticks: 0, light: 118 },
  held: [],
};

/** Page 2: four bubbles; question 121 (F marked) held for its own calibration's doubt. */
function pageTwo(overrides: Partial<PageCalibration> = {}): PageCalibration {
  return {
    bubbles: 4,
    marks: 2,
    emptyInk: { level: 0.003, spread: 0.003 },
    emptyFill: { level: 0.012, spread: 0.003 },
    emptySpecks: { level: 0, spread: 1 },
    ink: { threshold: 0.2, emptyMax: 0.012, markMin: 0.46 },
    fill: { threshold: 0.24, emptyMax: 0.012, markMin: 0.46 },
    markFill: 0.46,
    style: { fills: 0, ticks: 0, light: 2 },
    held: [
      {
        questionNo: 121,
        marked: ['F'],
        bubbles: [
          [0.012, 0.008, 5, 0.2],
          [0.461, 0.46, 3, 0.4],
        ],
      },
    ],
    ...overrides,
  };
}

describe('calibration across the pages of a student’s sheet', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  const app = () => handle.app;
  const db = () => app().database.db;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
  });
  afterAll(async () => {
    await handle?.close();
  });

  const page1 = (hw: TestHomework, student: number): FakeSheet => ({
    ...sheetOf(hw.id, hw.students[student]!.code, { 1: ['A'], 2: ['B'] }, 1),
    calibration: PAGE_ONE,
  });
  const page2 = (hw: TestHomework, student: number, calibration = pageTwo()): FakeSheet => ({
    ...sheetOf(hw.id, hw.students[student]!.code, { 121: ['F'], 122: ['T'] }, 2),
    confidence: { 121: 0.3 },
    problems: [{ kind: 'lowConfidence', questionNo: 121, detail: 'specks' }],
    calibration,
  });

  async function itemsOf(homeworkId: number, studentId: number) {
    return db()
      .select()
      .from(reviewItems)
      .where(and(eq(reviewItems.homeworkId, homeworkId), eq(reviewItems.studentId, studentId), eq(reviewItems.questionNo, 121)));
  }
  async function answerOf(homeworkId: number, studentId: number, questionNo: number) {
    const [row] = await db()
      .select()
      .from(answers)
      .where(and(eq(answers.homeworkId, homeworkId), eq(answers.studentId, studentId), eq(answers.questionNo, questionNo)));
    return row!;
  }
  async function scoreOf(homeworkId: number, studentId: number, questionNo: number) {
    const [row] = await db()
      .select()
      .from(questionScores)
      .where(
        and(
          eq(questionScores.homeworkId, homeworkId),
          eq(questionScores.studentId, studentId),
          eq(questionScores.questionNo, questionNo),
        ),
      );
    return row?.score ?? null;
  }
  async function readingOf(homeworkId: number, studentId: number, pageNo: number) {
    const [row] = await db()
      .select()
      .from(pageRecognitions)
      .where(
        and(
          eq(pageRecognitions.homeworkId, homeworkId),
          eq(pageRecognitions.studentId, studentId),
          eq(pageRecognitions.pageNo, pageNo),
          eq(pageRecognitions.applied, true),
        ),
      );
    return row!.reading!;
  }

  let hw: TestHomework;
  beforeAll(async () => {
    hw = await createHomework(app(), teacher.orgId, SHEET_PAPER);
    const template = data<{ pages: { page: number; objective: { questionNo: number }[] }[] }>(
      await teacher({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet/template` }),
    );
    expect(template.pages.find((p) => p.page === 2)?.objective.map((q) => q.questionNo)).toEqual([121, 122]);
  });

  it('holds the question when page 2 of the sheet is alone', async () => {
    const student = hw.students[0]!;
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page2(hw, 0)]);
    expect((await itemsOf(hw.id, student.id)).map((i) => i.status)).toEqual(['open']);
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ labels: ['F'], needsReview: true });
    expect(await scoreOf(hw.id, student.id, 121)).toBeNull();
  });

  it('releases and scores it when page 1 arrives with a clear calibration of the same marks', async () => {
    const student = hw.students[0]!;
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page1(hw, 0)]);
    const items = await itemsOf(hw.id, student.id);
    expect(items).toMatchObject([{ status: 'resolved', resolution: CALIBRATED_RESOLUTION, resolvedBy: null }]);
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ labels: ['F'], needsReview: false });
    expect(await scoreOf(hw.id, student.id, 121)).toBe(2);
    const reading = await readingOf(hw.id, student.id, 2);
    expect(reading.calibration?.released).toEqual([{ questionNo: 121, alone: 0.3, pooled: 1 }]);
    expect(reading.problems.filter((p) => p.questionNo === 121)).toEqual([]);
  });

  it('changes nothing when the sheet is scanned again (a duplicate page) or settled again', async () => {
    const student = hw.students[0]!;
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page1(hw, 0)]);
    expect(await itemsOf(hw.id, student.id)).toMatchObject([{ status: 'resolved', resolution: CALIBRATED_RESOLUTION }]);
    expect((await readingOf(hw.id, student.id, 2)).calibration?.released).toHaveLength(1);
    expect(await scoreOf(hw.id, student.id, 121)).toBe(2);
  });

  it('holds the question again when page 2 is read again and no calibration releases it', async () => {
    const student = hw.students[0]!;
    const [rec] = await db()
      .select()
      .from(pageRecognitions)
      .where(
        and(
          eq(pageRecognitions.homeworkId, hw.id),
          eq(pageRecognitions.studentId, student.id),
          eq(pageRecognitions.pageNo, 2),
          eq(pageRecognitions.applied, true),
        ),
      );
    const released = rec!.reading!;
    // Read again (its placement now in doubt, say): the page alone holds question 121, with no calibration to pool.
    const again = {
      ...released,
      objective: released.objective.map((o) => (o.questionNo === 121 ? { ...o, confidence: 0.3 } : o)),
      problems: [{ kind: 'lowConfidence' as const, questionNo: 121, detail: 'page placement uncertain' }],
      calibration: undefined,
    };
    await db().update(pageRecognitions).set({ reading: again }).where(eq(pageRecognitions.id, rec!.id));
    const context = await app().marking.contexts.forHomework(teacher.orgId, hw.id);
    await db().transaction((tx) => settlePage(tx as unknown as Db, rec!.id, context));
    expect((await itemsOf(hw.id, student.id)).map((i) => i.status)).toEqual(['open']);
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ needsReview: true });
    expect(await scoreOf(hw.id, student.id, 121)).toBeNull();
    // Read again as first read: page 1's calibration releases it once more.
    await db()
      .update(pageRecognitions)
      .set({
        reading: {
          ...released,
          objective: again.objective,
          problems: again.problems,
          calibration: { ...released.calibration!, released: undefined, held: pageTwo().held },
        },
      })
      .where(eq(pageRecognitions.id, rec!.id));
    await db().transaction((tx) => settlePage(tx as unknown as Db, rec!.id, context));
    expect(await itemsOf(hw.id, student.id)).toMatchObject([{ status: 'resolved', resolution: CALIBRATED_RESOLUTION }]);
    expect(await scoreOf(hw.id, student.id, 121)).toBe(2);
  });

  it('reads page 2 with page 1 as a prior when page 1 came first: no review at all', async () => {
    const student = hw.students[1]!;
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page1(hw, 1), page2(hw, 1)]);
    expect(await itemsOf(hw.id, student.id)).toEqual([]);
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ labels: ['F'], needsReview: false });
    expect(await scoreOf(hw.id, student.id, 121)).toBe(2);
  });

  it('leaves the question held when page 2 does not look like page 1 (other paper or scanner)', async () => {
    const student = hw.students[2]!;
    const darker = pageTwo({ emptyFill: { level: 0.2, spread: 0.003 } });
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page1(hw, 2), page2(hw, 2, darker)]);
    expect((await itemsOf(hw.id, student.id)).map((i) => i.status)).toEqual(['open']);
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ needsReview: true });
  });

  it('leaves the question held when the pages disagree about where marks begin', async () => {
    const student = hw.students[3]!;
    // Page 1 reads bubbles with more ink than page 2's F as empty: no split serves both pages.
    const heavy = {
      ...PAGE_ONE,
      ink: { threshold: 0.55, emptyMax: 0.48, markMin: 0.62 },
      fill: { threshold: 0.6, emptyMax: 0.5, markMin: 0.7 },
    };
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [{ ...page1(hw, 3), calibration: heavy }, page2(hw, 3)]);
    expect((await itemsOf(hw.id, student.id)).map((i) => i.status)).toEqual(['open']);
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ needsReview: true });
  });

  it("never touches a person's decision: an item resolved by a teacher stays as they left it", async () => {
    const student = hw.students[4]!;
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page2(hw, 4)]);
    const [item] = await itemsOf(hw.id, student.id);
    data(
      await teacher({
        method: 'POST',
        url: `/api/marking/review/${item!.id}/resolve`,
        payload: { action: 'setAnswer', questionNo: 121, labels: ['T'] },
      }),
    );
    const before = await itemsOf(hw.id, student.id);
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [page1(hw, 4)]);
    const after = await itemsOf(hw.id, student.id);
    expect(after).toEqual(before);
    expect(after[0]).toMatchObject({ status: 'resolved', answerLabels: ['T'] });
    expect(after[0]!.resolvedBy).not.toBeNull();
    expect(await answerOf(hw.id, student.id, 121)).toMatchObject({ labels: ['T'], needsReview: false });
    expect(await scoreOf(hw.id, student.id, 121)).toBe(0);
    expect((await readingOf(hw.id, student.id, 2)).calibration?.released).toBeUndefined();
  });
});
