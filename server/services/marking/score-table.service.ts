/**
 * The score table (成绩表) of a homework: one row per student of its classes (and any other student whose
 * sheet was counted), the final score per question from question_scores (the single source), the
 * objective answers as read, the total and the student's status (student-status.ts: 未扫描 and 缺考 have
 * no total, never 0); and the same as an Excel file (sheet 成绩表: 学号, 姓名, 班级, one column per
 * question, 总分, 状态; the cells of a student without scores stay empty).
 */
import ExcelJS from 'exceljs';
import { and, eq, isNotNull } from 'drizzle-orm';
import { hasScores, type ScoreTable, STUDENT_STATUS_LABELS, type StudentScore } from '../../../src/shared/contract/marking';
import type { Db } from '../../db/client';
import { answers, questionScores } from '../../db/schema';
import { requireSchool } from '../papers/school-scope';
import { type MarkingContextLoader, questionCountOf } from './marking-context';
import { roundScore } from './objective-scoring';
import { homeworkStudentStatuses } from './student-status';

export const SCORE_SHEET_NAME = '成绩表';

export type ScoreTableService = ReturnType<typeof createScoreTableService>;

export function createScoreTableService({ db, contexts }: { db: Db; contexts: MarkingContextLoader }) {
  async function table(userId: number, homeworkId: number): Promise<ScoreTable> {
    const scope = await requireSchool(db, userId);
    const context = await contexts.require(scope.orgId, homeworkId);
    const questionNos = [...context.questions.keys()];
    const [roster, scoreRows, answerRows] = await Promise.all([
      homeworkStudentStatuses(db, scope.orgId, homeworkId, questionCountOf(context)),
      db.select().from(questionScores).where(eq(questionScores.homeworkId, homeworkId)),
      db
        .select({ studentId: answers.studentId, questionNo: answers.questionNo, labels: answers.labels })
        .from(answers)
        .where(and(eq(answers.homeworkId, homeworkId), isNotNull(answers.labels))),
    ]);
    const key = (studentId: number, no: number) => `${studentId}:${no}`;
    const scoreOf = new Map(scoreRows.map((row) => [key(row.studentId, row.questionNo), row.score]));
    const labelsOf = new Map(answerRows.map((row) => [key(row.studentId, row.questionNo), row.labels]));
    const studentsOut: StudentScore[] = roster.map((student) => {
      const scores: Record<string, number | null> = {};
      const read: Record<string, string[]> = {};
      let total = 0;
      for (const no of questionNos) {
        const score = scoreOf.get(key(student.studentId, no));
        scores[String(no)] = score ?? null;
        if (score !== undefined) total += score;
        const labels = labelsOf.get(key(student.studentId, no));
        if (labels) read[String(no)] = labels;
      }
      return {
        studentId: student.studentId,
        name: student.name,
        code: student.code,
        className: student.className,
        scores,
        answers: read,
        total: hasScores(student.status) ? roundScore(total) : null,
        complete: student.status === 'complete',
        status: student.status,
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
      sheet.addRow(['学号', '姓名', '班级', ...data.questions.map((q) => `第${q.questionNo}题`), '总分', '状态']);
      for (const student of data.students) {
        // 未扫描 / 缺考: empty cells, never 0 (a blank cell stays out of Excel's AVERAGE).
        const scored = hasScores(student.status);
        const row = sheet.addRow([
          student.code,
          student.name,
          student.className,
          ...data.questions.map((q) => (scored ? (student.scores[String(q.questionNo)] ?? null) : null)),
          // Only a 已阅完 student has a 总分: a 阅卷中 partial sum would mix into the column's SUM / AVERAGE.
          student.status === 'complete' ? student.total : null,
          STUDENT_STATUS_LABELS[student.status],
        ]);
        // Marks and totals are numbers, shown as the page shows them: 7.5 as 7.5, 9 as 9 (0.## would show "9.").
        for (let column = 4; column <= 4 + data.questions.length; column += 1) {
          const cell = row.getCell(column);
          if (typeof cell.value === 'number') cell.numFmt = Number.isInteger(cell.value) ? '0' : '0.##';
        }
      }
      sheet.getRow(1).font = { bold: true };
      sheet.getColumn(1).width = 14;
      sheet.getColumn(3).width = 14;
      sheet.views = [{ state: 'frozen', xSplit: 3, ySplit: 1 }];
      return { file: Buffer.from(await workbook.xlsx.writeBuffer()), fileName: `${data.title}-成绩表.xlsx` };
    },
  };
}
