/**
 * Where each student of a homework stands (StudentStatus): the one place that decides 未扫描 / 缺考 /
 * 阅卷中 / 已阅完, read by the score table, the homework status rule, the /correct overview and the
 * simulated scanner's feed (and by analysis). The roster is the students of the homework's classes (of a
 * personalised set: those it made papers for) plus any other student whose sheet was counted for it. A student is scanned once any answer of theirs is
 * counted; complete once every question has its final score and no review item of theirs is open.
 */
import { and, asc, count, eq, inArray, isNull, notExists, or, sql } from 'drizzle-orm';
import type { HomeworkStudentsSummary, StudentStatus } from '../../../src/shared/contract/marking';
import type { Db } from '../../db/client';
import {
  answers,
  classes,
  homeworkAbsences,
  homeworkClasses,
  homeworkStudentPapers,
  questionScores,
  reviewItems,
  students,
} from '../../db/schema';
import { reviewItemsOf } from './review-scope';

export type HomeworkStudentStatus = {
  studentId: number;
  name: string;
  code: string;
  classId: number;
  className: string;
  status: StudentStatus;
};

/**
 * Every student of the homework with their status, in class and 学号 order. `questionCount`: the
 * homework's number of questions, when known (a student with fewer answers is not complete); per student
 * when students answer papers of their own (a personalised set).
 */
export async function homeworkStudentStatuses(
  db: Db,
  orgId: number,
  homeworkId: number,
  questionCount?: number | ((studentId: number) => number),
): Promise<HomeworkStudentStatus[]> {
  const counted = db.select({ id: answers.studentId }).from(answers).where(eq(answers.homeworkId, homeworkId));
  const assignedClasses = db
    .select({ id: homeworkClasses.classId })
    .from(homeworkClasses)
    .where(eq(homeworkClasses.homeworkId, homeworkId));
  // A personalised set expects the students it made papers for, not the rest of their classes.
  const ownPapers = db
    .select({ id: homeworkStudentPapers.studentId })
    .from(homeworkStudentPapers)
    .where(eq(homeworkStudentPapers.homeworkId, homeworkId));
  const [roster, answerCounts, absences, openItems] = await Promise.all([
    db
      .select({ id: students.id, name: students.name, code: students.code, classId: classes.id, className: classes.name })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .where(
        and(
          eq(students.orgId, orgId),
          // Archived students who never handed in are not expected any more; what they handed in counts.
          or(
            and(
              inArray(students.classId, assignedClasses),
              isNull(students.archivedAt),
              or(notExists(ownPapers), inArray(students.id, ownPapers)),
            ),
            inArray(students.id, counted),
          ),
        ),
      )
      .orderBy(asc(classes.sort), asc(classes.id), asc(students.code)),
    db
      .select({
        studentId: answers.studentId,
        answers: count(),
        scored: sql<number>`count(${questionScores.answerId})`.mapWith(Number),
      })
      .from(answers)
      .leftJoin(questionScores, answerHasFinalScore())
      .where(eq(answers.homeworkId, homeworkId))
      .groupBy(answers.studentId),
    db
      .select({ studentId: homeworkAbsences.studentId })
      .from(homeworkAbsences)
      .where(and(eq(homeworkAbsences.homeworkId, homeworkId), eq(homeworkAbsences.orgId, orgId))),
    openReviewItems(db, orgId, homeworkId),
  ]);
  const countsOf = new Map(answerCounts.map((row) => [row.studentId, row]));
  const absent = new Set(absences.map((row) => row.studentId));
  const blocked = new Set(openItems.map((row) => row.studentId));
  return roster.map((student) => {
    const expected = typeof questionCount === 'function' ? questionCount(student.id) : questionCount;
    const status = decideStudentStatus(countsOf.get(student.id), absent.has(student.id), blocked.has(student.id), expected);
    return {
      studentId: student.id,
      name: student.name,
      code: student.code,
      classId: student.classId,
      className: student.className,
      status,
    };
  });
}

/**
 * The join of a counted answer to its final score (the question's score of that student in that
 * homework): `answers` left-joined to `questionScores` on this condition has a null score while the
 * answer is not finally marked.
 */
export function answerHasFinalScore() {
  return and(
    eq(questionScores.homeworkId, answers.homeworkId),
    eq(questionScores.studentId, answers.studentId),
    eq(questionScores.questionNo, answers.questionNo),
  );
}

/** The homework's open review items, one row each with its student (null before one is known). */
export function openReviewItems(db: Db, orgId: number, homeworkId: number) {
  return db
    .select({ studentId: reviewItems.studentId })
    .from(reviewItems)
    .where(and(eq(reviewItems.orgId, orgId), eq(reviewItems.status, 'open'), reviewItemsOf(homeworkId)));
}

/**
 * The decision itself, from what is known of one student: their counted answers and how many of them
 * have a final score, whether they were marked absent, and whether a review item of theirs is open.
 * Analysis loads the same facts for many homework at once and asks this function.
 */
export function decideStudentStatus(
  counts: { answers: number; scored: number } | undefined,
  absent: boolean,
  blocked: boolean,
  questionCount?: number,
): StudentStatus {
  if (counts && counts.answers > 0) {
    const allScored = counts.scored === counts.answers && (questionCount === undefined || counts.answers >= questionCount);
    return allScored && !blocked ? 'complete' : 'marking';
  }
  return absent ? 'absent' : 'unscanned';
}

/** The /correct summary: how many are scanned, who is still missing and who is absent. */
export function summariseStudents(statuses: HomeworkStudentStatus[]): HomeworkStudentsSummary {
  const pick = (s: HomeworkStudentStatus) => ({ studentId: s.studentId, name: s.name, code: s.code });
  return {
    total: statuses.length,
    scanned: statuses.filter((s) => s.status === 'marking' || s.status === 'complete').length,
    unscanned: statuses.filter((s) => s.status === 'unscanned').map(pick),
    absent: statuses.filter((s) => s.status === 'absent').map(pick),
  };
}
