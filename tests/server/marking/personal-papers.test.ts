/**
 * Marking a personalised re-practice homework (each student their own paper): question 5 is a different
 * question for two students. /write's next answer carries that student's own question (stem, key) and
 * full score, and the server holds each score to that student's full score, not the homework paper's.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, homework, homeworkStudentPapers, markingTasks, paperQuestions, questions } from '../../../server/db/schema';
import { answerSheetSpecOf } from '../../../server/services/papers/homework.service';
import { MARKING_MESSAGES, markingTaskSchema, type MarkingTask } from '../../../src/shared/contract/marking';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import type { PaperDetail } from '../../../src/shared/contract/papers';
import {
  type Caller,
  callerFor,
  createHomework,
  createMarkingApp,
  data,
  FakeEngine,
  type MarkingApp,
  type QuestionSpec,
  scanSheets,
  sheetOf,
  STANDARD_PAPER,
  type TestHomework,
} from './marking-helper';

/** The standard paper with question 5 (subjective) worth `score`. */
const withLast = (score: number): QuestionSpec[] => [...STANDARD_PAPER.slice(0, 4), { ...STANDARD_PAPER[4]!, score }];

describe('marking a homework with per-student papers', () => {
  let handle: MarkingApp;
  const engine = new FakeEngine();
  let teacher: Caller;
  let set: TestHomework;
  const own = new Map<number, { stem: string; score: number; questionId: number }>();
  const app = () => handle.app;
  const db = () => app().database.db;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
    // The homework's own paper says question 5 is worth 10; the two students' papers say 4 and 8.
    set = await createHomework(app(), teacher.orgId, STANDARD_PAPER);
    const [row] = await db().select().from(homework).where(eq(homework.id, set.id));
    for (const [i, score] of [4, 8].entries()) {
      const student = set.students[i]!;
      const other = await createHomework(app(), teacher.orgId, withLast(score));
      const [source] = await db().select().from(homework).where(eq(homework.id, other.id));
      const [fifth] = await db()
        .select()
        .from(paperQuestions)
        .where(and(eq(paperQuestions.paperId, source!.paperId), eq(paperQuestions.no, 5)));
      const stem = `${student.name}的第5题：求 $x^${i + 2}$ 的导数`;
      await db()
        .update(questions)
        .set({ stem, answer: [`参考答案${i + 1}`] })
        .where(eq(questions.id, fifth!.questionId));
      own.set(student.id, { stem, score, questionId: fifth!.questionId });
      const paper = data<PaperDetail>(await teacher({ method: 'GET', url: `/api/papers/${source!.paperId}` }));
      const template = layoutAnswerSheet(answerSheetSpecOf(row!, paper));
      await db()
        .insert(homeworkStudentPapers)
        .values({ homeworkId: set.id, studentId: student.id, orgId: teacher.orgId, paperId: source!.paperId, template });
    }
    await scanSheets(
      app(),
      engine,
      teacher.token,
      set.id,
      set.students.slice(0, 2).map((s) => sheetOf(set.id, s.code)),
    );
  }, 120_000);

  afterAll(() => handle.close());

  async function next(skip: number[] = []): Promise<MarkingTask | null> {
    const end = Date.now() + 20_000;
    while (Date.now() < end) {
      const response = await teacher({
        method: 'POST',
        url: `/api/marking/homework/${set.id}/questions/5/next`,
        payload: { skip },
      });
      expect(response.statusCode, response.body).toBe(200);
      const task = data<MarkingTask | null>(response);
      if (task) return markingTaskSchema.parse(task);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return null;
  }

  async function studentOf(task: MarkingTask) {
    const [row] = await db().select({ studentId: answers.studentId }).from(answers).where(eq(answers.id, task.answerId));
    return row!.studentId;
  }

  it("serves each answer with that student's own question and full score, and holds the score to it", async () => {
    const first = await next();
    const second = await next([first!.taskId]);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    const seen = new Set<number>();
    for (const task of [first!, second!]) {
      const studentId = await studentOf(task);
      seen.add(studentId);
      const mine = own.get(studentId)!;
      expect(task.maxScore).toBe(mine.score);
      expect(task.ownQuestion).toMatchObject({ questionId: mine.questionId, stem: mine.stem, score: mine.score });
      expect(task.ownQuestion!.answer).toEqual([`参考答案${mine.score === 4 ? 1 : 2}`]);

      // Above this student's full score (still under the homework paper's 10): 400, nothing kept.
      const over = await teacher({
        method: 'POST',
        url: `/api/marking/tasks/${task.taskId}/score`,
        payload: { score: mine.score + 1 },
      });
      expect(over.statusCode).toBe(400);
      expect(over.json().msg ?? over.json().message).toBe(MARKING_MESSAGES.scoreOutOfRange);
      const [still] = await db().select().from(markingTasks).where(eq(markingTasks.id, task.taskId));
      expect(still!.score).toBeNull();

      const ok = await teacher({
        method: 'POST',
        url: `/api/marking/tasks/${task.taskId}/score`,
        payload: { score: mine.score },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      const saved = markingTaskSchema.parse(data(ok));
      expect(saved.maxScore).toBe(mine.score);
      expect(saved.ownQuestion?.questionId).toBe(mine.questionId);
    }
    expect(seen.size).toBe(2);
    // The history shows each answer with its own question too.
    const history = data<MarkingTask[]>(
      await teacher({ method: 'GET', url: `/api/marking/homework/${set.id}/questions/5/history` }),
    );
    expect(history.map((t) => t.maxScore).sort()).toEqual([4, 8]);
  }, 60_000);

  it('an ordinary homework carries no own question', async () => {
    const plain = await createHomework(app(), teacher.orgId, STANDARD_PAPER);
    const student = plain.students[0]!;
    await scanSheets(app(), engine, teacher.token, plain.id, [sheetOf(plain.id, student.code)]);
    const end = Date.now() + 20_000;
    let task: MarkingTask | null = null;
    while (!task && Date.now() < end) {
      task = data<MarkingTask | null>(
        await teacher({ method: 'POST', url: `/api/marking/homework/${plain.id}/questions/5/next`, payload: {} }),
      );
      if (!task) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(task?.maxScore).toBe(10);
    expect(task && 'ownQuestion' in task).toBe(false);
  }, 60_000);
});
