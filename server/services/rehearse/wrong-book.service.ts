/**
 * README of re-practice (错题重练), server side. Tables (server/db/schema-rehearse.ts, migration 0008):
 *
 * - wrong_questions: the wrong-question book (错题本), one row per (student, question) the student got
 *   wrong. Derived, never edited: `recomputeWrongBook` rebuilds a student's rows from question_scores,
 *   and every writer of question_scores calls it (rescoreAnswers in marking/answer-scoring.ts is the one
 *   writer: first scoring, objective re-scoring, review resolutions, third marking, arbitration and marks
 *   changed on /write all pass through it; the demo seed calls it after seeding). Wrong = below the full
 *   score for objective questions, below the school's rehearse_settings.subjective_wrong_percent (default
 *   100 %) for hand-marked ones. No question_scores row (absent, not scanned, held by review) or a page
 *   accepted as missing: not wrong. The row points at its latest wrong attempt (last_homework_id,
 *   last_question_no = that student's question_scores row and its answer: labels or the cut-out image).
 * - rehearse_sets: a set a teacher made (kind personal | class), which becomes one homework (homework_id).
 * - rehearse_set_items: the questions of a set per student (student_id null: every student of the set's
 *   classes). `position` is the question number on that student's sheet, so question_scores.question_no
 *   of a set's homework is an item's position; `question_id` is the question printed there, `score` its
 *   full score (null: the paper's score at that number). An item with origin_question_id is a REDO of
 *   that origin question (the student's wrong question, or a similar one practising it).
 * - rehearse_queue: 加入错题重练 from the commentary, waiting for the class's next set (set_id null);
 *   a set that takes a queued question sets set_id.
 * - rehearse_settings: per school, the error causes (审题 / 计算 / 概念 / 步骤 / 未作答 by default) and
 *   the line for hand-marked questions. Error causes are given on /write (marking_tasks.error_cause),
 *   carried to question_scores.error_cause, and into the book from the latest wrong attempt.
 *
 * The redo rule (wrong-book-rules.ts, buildBook): a right redo moves 待重练 → 重练对 1; another right redo
 * in a LATER set's homework on a DIFFERENT question → 已掌握 (on the same question → 重练对 2, which still
 * needs a different one); a wrong redo, or the question wrong again anywhere, → 待重练.
 * Re-practice homework (rehearse_sets.homework_id) is not ordinary homework: analysis leaves it out of
 * the ordinary trend.
 */
import { and, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  homework,
  paperQuestions,
  questions,
  questionScores,
  rehearseSetItems,
  rehearseSettings,
  wrongQuestions,
} from '../../db/schema';
import { isManual, type QuestionType } from '../marking/objective-scoring';
import {
  type Attempt,
  type BookSettings,
  buildBook,
  DEFAULT_ERROR_CAUSES,
  DEFAULT_SUBJECTIVE_WRONG_PERCENT,
} from './wrong-book-rules';

export type RehearseSettingsRow = { errorCauses: string[]; subjectiveWrongPercent: number };

/** The school's re-practice settings (the defaults until it saves its own). */
export async function loadRehearseSettings(db: Db, orgId: number): Promise<RehearseSettingsRow> {
  const [row] = await db.select().from(rehearseSettings).where(eq(rehearseSettings.orgId, orgId));
  return {
    errorCauses: row?.errorCauses ?? [...DEFAULT_ERROR_CAUSES],
    subjectiveWrongPercent: row?.subjectiveWrongPercent ?? DEFAULT_SUBJECTIVE_WRONG_PERCENT,
  };
}

/** Every scored answer of these students, with the question behind it and whether it is a redo. */
async function loadAttempts(db: Db, orgId: number, studentIds: number[]): Promise<Map<number, Attempt[]>> {
  const answered = sql<number | null>`coalesce(${rehearseSetItems.questionId}, ${paperQuestions.questionId})`;
  const rows = await db
    .select({
      homeworkId: questionScores.homeworkId,
      studentId: questionScores.studentId,
      questionNo: questionScores.questionNo,
      score: questionScores.score,
      source: questionScores.source,
      errorCause: questionScores.errorCause,
      date: homework.startDate,
      itemStudentId: rehearseSetItems.studentId,
      itemScore: rehearseSetItems.score,
      originQuestionId: rehearseSetItems.originQuestionId,
      paperScore: paperQuestions.score,
      answeredQuestionId: answered,
      type: questions.type,
      subjectId: questions.subjectId,
    })
    .from(questionScores)
    .innerJoin(homework, eq(homework.id, questionScores.homeworkId))
    .leftJoin(paperQuestions, and(eq(paperQuestions.paperId, homework.paperId), eq(paperQuestions.no, questionScores.questionNo)))
    .leftJoin(
      rehearseSetItems,
      and(
        eq(rehearseSetItems.homeworkId, questionScores.homeworkId),
        eq(rehearseSetItems.position, questionScores.questionNo),
        or(eq(rehearseSetItems.studentId, questionScores.studentId), sql`${rehearseSetItems.studentId} is null`),
      ),
    )
    .innerJoin(questions, eq(questions.id, answered))
    .where(and(eq(questionScores.orgId, orgId), inArray(questionScores.studentId, studentIds)));

  const byStudent = new Map<number, Map<string, (typeof rows)[number]>>();
  for (const row of rows) {
    const key = `${row.homeworkId}:${row.questionNo}`;
    const own = byStudent.get(row.studentId) ?? new Map();
    const seen = own.get(key);
    // A student's own item wins over a whole-class item at the same number.
    if (!seen || (seen.itemStudentId === null && row.itemStudentId !== null)) own.set(key, row);
    byStudent.set(row.studentId, own);
  }
  const result = new Map<number, Attempt[]>();
  for (const [studentId, own] of byStudent) {
    result.set(
      studentId,
      [...own.values()].flatMap((row) => {
        const fullScore = row.itemScore ?? row.paperScore;
        if (fullScore === null || row.answeredQuestionId === null) return [];
        return [
          {
            homeworkId: row.homeworkId,
            date: row.date,
            questionNo: row.questionNo,
            answeredQuestionId: row.answeredQuestionId,
            originQuestionId: row.originQuestionId,
            subjectId: row.subjectId,
            score: row.score,
            fullScore,
            manual: isManual(row.type as QuestionType),
            source: row.source,
            errorCause: row.errorCause,
          },
        ];
      }),
    );
  }
  return result;
}

/**
 * Rebuilds the wrong-question book of these students of a school from question_scores, inside the
 * caller's transaction: inserts, updates and deletes their rows so they equal buildBook's answer.
 */
export async function recomputeWrongBook(db: Db, orgId: number, studentIds: readonly number[]): Promise<void> {
  const ids = [...new Set(studentIds)];
  if (ids.length === 0) return;
  const settings: BookSettings = await loadRehearseSettings(db, orgId);
  const attempts = await loadAttempts(db, orgId, ids);
  for (let start = 0; start < ids.length; start += 200) {
    const chunk = ids.slice(start, start + 200);
    const values = chunk.flatMap((studentId) =>
      buildBook(attempts.get(studentId) ?? [], settings).map((entry) => ({ orgId, studentId, ...entry })),
    );
    for (const studentId of chunk) {
      const kept = values.filter((v) => v.studentId === studentId).map((v) => v.questionId);
      await db
        .delete(wrongQuestions)
        .where(
          and(eq(wrongQuestions.studentId, studentId), kept.length > 0 ? notInArray(wrongQuestions.questionId, kept) : undefined),
        );
    }
    for (let offset = 0; offset < values.length; offset += 500) {
      await db
        .insert(wrongQuestions)
        .values(values.slice(offset, offset + 500))
        .onConflictDoUpdate({
          target: [wrongQuestions.studentId, wrongQuestions.questionId],
          set: {
            subjectId: sql`excluded.subject_id`,
            firstWrongOn: sql`excluded.first_wrong_on`,
            lastWrongOn: sql`excluded.last_wrong_on`,
            homeworkIds: sql`excluded.homework_ids`,
            lastHomeworkId: sql`excluded.last_homework_id`,
            lastQuestionNo: sql`excluded.last_question_no`,
            lastAnsweredQuestionId: sql`excluded.last_answered_question_id`,
            lastScore: sql`excluded.last_score`,
            fullScore: sql`excluded.full_score`,
            timesWrong: sql`excluded.times_wrong`,
            redoCount: sql`excluded.redo_count`,
            mastery: sql`excluded.mastery`,
            lastRedoHomeworkId: sql`excluded.last_redo_homework_id`,
            errorCause: sql`excluded.error_cause`,
            updatedAt: sql`now()`,
          },
        });
    }
  }
}
