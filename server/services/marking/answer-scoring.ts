/**
 * Turns answers into final scores (question_scores): objective answers from the answer key, manual
 * answers from their marking tasks under the double-marking rules, a page accepted as missing as 0.
 * Keeps each manual answer's tasks to exactly the rounds the rules ask for (unscored surplus rounds are
 * removed, scored ones stay as history). An answer held by an open review item has no score. Runs inside
 * the caller's transaction; callers lock the answers they change (see lockAnswers).
 */
import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { answers, markingTasks, questionScores } from '../../db/schema';
import { decide } from './double-marking';
import { type HomeworkContext, markersOf, settingsOf } from './marking-context';
import { scoreObjective } from './objective-scoring';

/** Serialises everything that rescoring an answer reads and writes (two markers submitting at once). */
export async function lockAnswers(tx: Db, answerIds: number[]): Promise<void> {
  if (answerIds.length === 0) return;
  await tx.select({ id: answers.id }).from(answers).where(inArray(answers.id, answerIds)).orderBy(answers.id).for('update');
}

async function setFinal(
  tx: Db,
  answer: typeof answers.$inferSelect,
  score: number | null,
  source: 'auto' | 'marked' | 'missing',
): Promise<void> {
  if (score === null) {
    await tx
      .delete(questionScores)
      .where(
        and(
          eq(questionScores.homeworkId, answer.homeworkId),
          eq(questionScores.studentId, answer.studentId),
          eq(questionScores.questionNo, answer.questionNo),
        ),
      );
    return;
  }
  await tx
    .insert(questionScores)
    .values({
      homeworkId: answer.homeworkId,
      studentId: answer.studentId,
      questionNo: answer.questionNo,
      orgId: answer.orgId,
      answerId: answer.id,
      score,
      source,
    })
    .onConflictDoUpdate({
      target: [questionScores.homeworkId, questionScores.studentId, questionScores.questionNo],
      set: { answerId: answer.id, score, source, updatedAt: sql`now()` },
    });
}

/** Makes the tasks of a manual answer match the rules and records its final score, if decided. */
async function rescoreManual(tx: Db, context: HomeworkContext, answer: typeof answers.$inferSelect): Promise<void> {
  const settings = settingsOf(context, answer.questionNo);
  const tasks = await tx
    .select({
      round: markingTasks.round,
      score: markingTasks.score,
      problem: markingTasks.problem,
      markerId: markingTasks.markerId,
    })
    .from(markingTasks)
    .where(eq(markingTasks.answerId, answer.id));
  const firstTwo = new Set(tasks.filter((t) => t.round <= 2 && t.score !== null).map((t) => t.markerId));
  const candidates = [
    ...markersOf(context, answer.questionNo),
    ...(context.homework.createdBy === null ? [] : [context.homework.createdBy]),
  ];
  const thirdMarkerAvailable = candidates.some((id) => !firstTwo.has(id));
  const decision = decide(tasks, settings.doubleMarking, settings.tolerance, thirdMarkerAvailable);
  const missing = decision.rounds.filter((round) => !tasks.some((task) => task.round === round));
  if (missing.length > 0) {
    await tx
      .insert(markingTasks)
      .values(
        missing.map((round) => ({
          orgId: answer.orgId,
          homeworkId: answer.homeworkId,
          answerId: answer.id,
          questionNo: answer.questionNo,
          round,
        })),
      )
      .onConflictDoNothing();
  }
  await tx
    .delete(markingTasks)
    .where(
      and(eq(markingTasks.answerId, answer.id), isNull(markingTasks.score), notInArray(markingTasks.round, decision.rounds)),
    );
  await setFinal(tx, answer, decision.final, 'marked');
}

/** Rescores the given answers of one homework. */
export async function rescoreAnswers(tx: Db, context: HomeworkContext, answerIds: number[]): Promise<void> {
  if (answerIds.length === 0) return;
  const rows = await tx
    .select()
    .from(answers)
    .where(and(eq(answers.homeworkId, context.homework.id), inArray(answers.id, answerIds)));
  for (const answer of rows) {
    const question = context.questions.get(answer.questionNo);
    if (!question) continue;
    if (answer.missing) {
      await tx.delete(markingTasks).where(and(eq(markingTasks.answerId, answer.id), isNull(markingTasks.score)));
      await setFinal(tx, answer, 0, 'missing');
    } else if (answer.needsReview) {
      await setFinal(tx, answer, null, 'auto');
    } else if (!question.manual) {
      const score = scoreObjective(question.type, question.key, answer.labels ?? [], question.score, context.partialCredit);
      if (answer.autoScore !== score) await tx.update(answers).set({ autoScore: score }).where(eq(answers.id, answer.id));
      await setFinal(tx, answer, score, 'auto');
    } else {
      await rescoreManual(tx, context, answer);
    }
  }
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
