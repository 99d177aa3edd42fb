/**
 * The score table (成绩表) of a homework: one row per student of its classes (and any other student whose
 * sheet was counted), the final score per question from question_scores (the single source), the
 * objective answers as read, the total and whether the student is complete; and the same as an Excel
 * file (sheet 成绩表: 学号, 姓名, 班级, one column per question, 总分).
 */
import ExcelJS from 'exceljs';
import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { ScoreTable, StudentScore } from '../../../src/shared/contract/marking';
import type { Db } from '../../db/client';
import { answers, classes, homeworkClasses, questionScores, reviewItems, students } from '../../db/schema';
import { requireSchool } from '../papers/school-scope';
import type { MarkingContextLoader } from './marking-context';
import { reviewItemsOf } from './marking-progress';
import { roundScore } from './objective-scoring';

export const SCORE_SHEET_NAME = '成绩表';

export type ScoreTableService = ReturnType<typeof createScoreTableService>;

export function createScoreTableService({ db, contexts }: { db: Db; contexts: MarkingContextLoader }) {
  async function table(userId: number, homeworkId: number): Promise<ScoreTable> {
    const scope = await requireSchool(db, userId);
    const context = await contexts.require(scope.orgId, homeworkId);
    const counted = db.select({ id: answers.studentId }).from(answers).where(eq(answers.homeworkId, homeworkId));
    const assignedClasses = db
      .select({ id: homeworkClasses.classId })
      .from(homeworkClasses)
      .where(eq(homeworkClasses.homeworkId, homeworkId));
    const [roster, scoreRows, answerRows, openItems] = await Promise.all([
      db
        .select({ id: students.id, name: students.name, code: students.code, className: classes.name })
        .from(students)
        .innerJoin(classes, eq(classes.id, students.classId))
        .where(
          and(eq(students.orgId, scope.orgId), or(inArray(students.classId, assignedClasses), inArray(students.id, counted))),
        )
        .orderBy(asc(classes.sort), asc(classes.id), asc(students.code)),
      db.select().from(questionScores).where(eq(questionScores.homeworkId, homeworkId)),
      db
        .select({ studentId: answers.studentId, questionNo: answers.questionNo, labels: answers.labels })
        .from(answers)
        .where(and(eq(answers.homeworkId, homeworkId), isNotNull(answers.labels))),
      db
        .select({ studentId: reviewItems.studentId })
        .from(reviewItems)
        .where(and(eq(reviewItems.orgId, scope.orgId), eq(reviewItems.status, 'open'), reviewItemsOf(homeworkId))),
    ]);
    const questionNos = [...context.questions.keys()];
    const blocked = new Set(openItems.map((item) => item.studentId));
    const key = (studentId: number, no: number) => `${studentId}:${no}`;
    const scoreOf = new Map(scoreRows.map((row) => [key(row.studentId, row.questionNo), row.score]));
    const labelsOf = new Map(answerRows.map((row) => [key(row.studentId, row.questionNo), row.labels]));
    const studentsOut: StudentScore[] = roster.map((student) => {
      const scores: Record<string, number | null> = {};
      const read: Record<string, string[]> = {};
      let total = 0;
      let scored = 0;
      for (const no of questionNos) {
        const score = scoreOf.get(key(student.id, no));
        scores[String(no)] = score ?? null;
        if (score !== undefined) {
          total += score;
          scored += 1;
        }
        const labels = labelsOf.get(key(student.id, no));
        if (labels) read[String(no)] = labels;
      }
      return {
        studentId: student.id,
        name: student.name,
        code: student.code,
        className: student.className,
        scores,
        answers: read,
        total: roundScore(total),
        complete: scored === questionNos.length && !blocked.has(student.id),
      };
    });
    return {
      homeworkId,
      title: context.homework.title,
      questions: [...context.questions.values()].map((q) => ({ questionNo: q.no, type: q.type, score: q.score })),
      students: studentsOut,
    };
  }

  return {
    table,

    async xlsx(userId: number, homeworkId: number): Promise<{ file: Buffer; fileName: string }> {
      const data = await table(userId, homeworkId);
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet(SCORE_SHEET_NAME);
      sheet.addRow(['学号', '姓名', '班级', ...data.questions.map((q) => `第${q.questionNo}题`), '总分']);
      for (const student of data.students) {
        sheet.addRow([
          student.code,
          student.name,
          student.className,
          ...data.questions.map((q) => student.scores[String(q.questionNo)] ?? null),
          student.total,
        ]);
      }
      sheet.getRow(1).font = { bold: true };
      sheet.getColumn(1).width = 14;
      sheet.getColumn(3).width = 14;
      sheet.views = [{ state: 'frozen', xSplit: 3, ySplit: 1 }];
      return { file: Buffer.from(await workbook.xlsx.writeBuffer()), fileName: `${data.title}-成绩表.xlsx` };
    },
  };
}
