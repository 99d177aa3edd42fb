/**
 * Turns answers into final scores (question_scores): objective answers from the answer key, manual
 * answers from their marking tasks under the double-marking rules, a page accepted as missing as 0.
 * Keeps each manual answer's tasks to exactly the rounds the rules ask for (unscored surplus rounds are
 * removed, scored ones stay as history). An answer held by an open review item has no score. Runs inside
 * the caller's transaction; callers lock the answers they change (see lockAnswers). Decides in memory and
 * writes in a handful of set-based statements, however many answers a page has.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { answers, markingTasks, questionScores } from '../../db/schema';
import { recomputeWrongBook } from '../rehearse/wrong-book.service';
import { decide } from './double-marking';
import { type HomeworkContext, markersOf, settingsOf, sheetOfStudent } from './marking-context';
import { scoreObjective } from './objective-scoring';

type AnswerRow = typeof answers.$inferSelect;
type Final = { answer: AnswerRow; score: number; source: 'auto' | 'marked' | 'missing'; errorCause?: string | null };

/** Serialises everything that rescoring an answer reads and writes (two markers submitting at once). */
export async function lockAnswers(tx: Db, answerIds: number[]): Promise<void> {
  if (answerIds.length === 0) return;
  await tx.select({ id: answers.id }).from(answers).where(inArray(answers.id, answerIds)).orderBy(answers.id).for('update');
}

/** Is any teacher besides the first two markers allowed a third marking of this answer? */
function thirdMarkerAvailable(context: HomeworkContext, questionNo: number, firstTwo: Set<number | null>): boolean {
  const owner = context.homework.createdBy;
  const candidates = [...markersOf(context, questionNo), ...(owner === null ? [] : [owner])];
  return candidates.some((id) => !firstTwo.has(id));
}

/**
 * 按学科分配: answers on pages scanned with the flag go to the subject teachers (of the paper's
 * subject) of the student's class; the class of each such answer that has one. Others: the question's
 * markers.
 */
async function subjectTeacherClasses(tx: Db, context: HomeworkContext, answerIds: number[]): Promise<Map<number, number>> {
  const result = await tx.execute(sql`select a.id as answer_id, s.class_id from answers a
    join page_recognitions pr on pr.id = a.recognition_id
    join scan_pages sp on sp.id = pr.scan_page_id
    join students s on s.id = a.student_id
    where a.id = any(array[${sql.join(
      answerIds.map((id) => sql`${id}`),
      sql`, `,
    )}]::int[]) and sp.scan_subject
      and exists (select 1 from teaching_assignments ta
        where ta.class_id = s.class_id and ta.subject_id = ${context.subjectId} and ta.org_id = ${context.orgId})`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    answer_id: number;
    class_id: number;
  }[];
  return new Map(rows.map((row) => [Number(row.answer_id), Number(row.class_id)]));
}

/** Rescores the given answers of one homework. */
export async function rescoreAnswers(tx: Db, context: HomeworkContext, answerIds: number[]): Promise<void> {
  if (answerIds.length === 0) return;
  const rows = await tx
    .select()
    .from(answers)
    .where(and(eq(answers.homeworkId, context.homework.id), inArray(answers.id, answerIds)));
  const manualIds = rows
    .filter((a) => !a.missing && !a.needsReview && sheetOfStudent(context, a.studentId).questions.get(a.questionNo)?.manual)
    .map((a) => a.id);
  const tasks =
    manualIds.length === 0
      ? []
      : await tx
          .select({
            answerId: markingTasks.answerId,
            round: markingTasks.round,
            score: markingTasks.score,
            problem: markingTasks.problem,
            markerId: markingTasks.markerId,
            errorCause: markingTasks.errorCause,
          })
          .from(markingTasks)
          .where(inArray(markingTasks.answerId, manualIds));

  const finals: Final[] = [];
  const undecided: AnswerRow[] = [];
  const autoScores: { id: number; score: number }[] = [];
  const newTasks: (typeof markingTasks.$inferInsert)[] = [];
  /** Unscored tasks to remove: (answer, round) pairs. */
  const surplus: { answerId: number; round: number }[] = [];
  const missingAnswers: number[] = [];

  for (const answer of rows) {
    const question = sheetOfStudent(context, answer.studentId).questions.get(answer.questionNo);
    if (!question) continue;
    if (answer.missing) {
      missingAnswers.push(answer.id);
      finals.push({ answer, score: 0, source: 'missing' });
    } else if (answer.needsReview) {
      undecided.push(answer);
    } else if (!question.manual) {
      const score = scoreObjective(question.type, question.key, answer.labels ?? [], question.score, context.partialCredit);
      if (answer.autoScore !== score) autoScores.push({ id: answer.id, score });
      finals.push({ answer, score, source: 'auto' });
    } else {
      const settings = settingsOf(context, answer.questionNo);
      const own = tasks.filter((task) => task.answerId === answer.id);
      const firstTwo = new Set(own.filter((t) => t.round <= 2 && t.score !== null).map((t) => t.markerId));
      const decision = decide(
        own,
        settings.doubleMarking,
        settings.tolerance,
        thirdMarkerAvailable(context, answer.questionNo, firstTwo),
      );
      for (const round of decision.rounds) {
        if (own.some((task) => task.round === round)) continue;
        newTasks.push({
          orgId: answer.orgId,
          homeworkId: answer.homeworkId,
          answerId: answer.id,
          questionNo: answer.questionNo,
          round,
        });
      }
      for (const task of own) {
        if (task.score === null && !decision.rounds.includes(task.round))
          surplus.push({ answerId: answer.id, round: task.round });
      }
      if (decision.final === null) undecided.push(answer);
      else {
        // The latest marking that names a cause (an arbitration's over the first markers').
        const cause = own.filter((t) => t.score !== null && t.errorCause).sort((a, b) => b.round - a.round)[0];
        finals.push({ answer, score: decision.final, source: 'marked', errorCause: cause?.errorCause ?? null });
      }
    }
  }

  if (missingAnswers.length > 0) {
    await tx.delete(markingTasks).where(and(inArray(markingTasks.answerId, missingAnswers), isNull(markingTasks.score)));
  }
  if (surplus.length > 0) {
    const pairs = sql.join(
      surplus.map((s) => sql`(${s.answerId}::int, ${s.round}::int)`),
      sql`, `,
    );
    await tx
      .delete(markingTasks)
      .where(sql`${markingTasks.score} is null and (${markingTasks.answerId}, ${markingTasks.round}) in (${pairs})`);
  }
  if (newTasks.length > 0) {
    const byClass = await subjectTeacherClasses(tx, context, [...new Set(newTasks.map((task) => task.answerId))]);
    for (const task of newTasks) task.classId = byClass.get(task.answerId) ?? null;
    await tx.insert(markingTasks).values(newTasks).onConflictDoNothing();
  }
  if (autoScores.length > 0) {
    const cases = sql.join(
      autoScores.map((a) => sql`when ${a.id}::int then ${a.score}::double precision`),
      sql` `,
    );
    await tx
      .update(answers)
      .set({ autoScore: sql`case ${answers.id} ${cases} end` })
      .where(
        inArray(
          answers.id,
          autoScores.map((a) => a.id),
        ),
      );
  }
  if (undecided.length > 0) {
    const keys = sql.join(
      undecided.map((a) => sql`(${a.studentId}::int, ${a.questionNo}::int)`),
      sql`, `,
    );
    await tx
      .delete(questionScores)
      .where(
        sql`${questionScores.homeworkId} = ${context.homework.id} and (${questionScores.studentId}, ${questionScores.questionNo}) in (${keys})`,
      );
  }
  if (finals.length > 0) {
    await tx
      .insert(questionScores)
      .values(
        finals.map(({ answer, score, source, errorCause }) => ({
          homeworkId: answer.homeworkId,
          studentId: answer.studentId,
          questionNo: answer.questionNo,
          orgId: answer.orgId,
          answerId: answer.id,
          score,
          source,
          errorCause: errorCause ?? null,
        })),
      )
      .onConflictDoUpdate({
        target: [questionScores.homeworkId, questionScores.studentId, questionScores.questionNo],
        set: {
          answerId: sql`excluded.answer_id`,
          score: sql`excluded.score`,
          source: sql`excluded.source`,
          // Marked answers take the markers' cause; a cause given in the book to an objective answer stays.
          errorCause: sql`case when excluded.source = 'marked' then excluded.error_cause else ${questionScores.errorCause} end`,
          updatedAt: sql`now()`,
        },
      });
  }
  // The wrong-question book follows every change of final scores.
  const touched = new Set([...finals.map((f) => f.answer.studentId), ...undecided.map((a) => a.studentId)]);
  await recomputeWrongBook(tx, context.orgId, [...touched]);
}

/** Every answer of some questions of a homework (after settings or the partial credit changed). */
export async function rescoreQuestions(tx: Db, context: HomeworkContext, questionNos: number[]): Promise<void> {
  if (questionNos.length === 0) return;
  const rows = await tx
    .select({ id: answers.id })
    .from(answers)
    .where(and(eq(answers.homeworkId, context.homework.id), inArray(answers.questionNo, questionNos)));
  const ids = rows.map((row) => row.id);
  await lockAnswers(tx, ids);
  await rescoreAnswers(tx, context, ids);
}
