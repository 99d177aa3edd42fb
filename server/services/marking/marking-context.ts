/**
 * What recognition, scoring and marking need to know about one homework: the row, its paper's questions
 * with their answer keys mapped to bubble labels, the answer-sheet template it was printed with, the
 * marking settings and the multiple-choice partial credit. Loaded once per page or request, outside
 * transactions. Also the school-scoped "homework or 404" every endpoint starts with.
 */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { type AnswerSheetTemplate, answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import type { Db } from '../../db/client';
import {
  answerSheetTemplates,
  homework,
  homeworkStudentPapers,
  markingAssignments,
  markingHomeworkSettings,
  markingQuestionSettings,
  paperQuestions,
  papers as paperRows,
  questions,
  students,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { answerSheetSpecOf } from '../papers/homework.service';
import type { PaperService } from '../papers/paper.service';
import { answerKeyLabels, isManual, type QuestionType } from './objective-scoring';

export type HomeworkRow = typeof homework.$inferSelect;

export type ContextQuestion = {
  no: number;
  /** The question bank's id (what the student sees: stem, key, analysis). */
  questionId?: number;
  type: QuestionType;
  score: number;
  /** Bubble labels of the correct answer (objective questions). */
  key: string[];
  manual: boolean;
};

export type QuestionSettings = { doubleMarking: boolean; tolerance: number };

/** What one student answers: their questions and the sheet printed for them. */
export type StudentSheet = { questions: Map<number, ContextQuestion>; template: AnswerSheetTemplate | null };

export type HomeworkContext = {
  homework: HomeworkRow;
  orgId: number;
  /** The paper's subject (按学科分配: its teachers of a class mark that class's answers). */
  subjectId: number;
  questions: Map<number, ContextQuestion>;
  /** Null when no sheet can be laid out for the paper (no questions). */
  template: AnswerSheetTemplate | null;
  partialCredit: number;
  settings: Map<number, QuestionSettings>;
  /** Assigned markers per question (none: the owner marks). */
  assignments: Map<number, number[]>;
  /**
   * Students who answer a paper of their own (a personalised re-practice set), by student id; empty
   * for an ordinary homework. `questions` and `template` above are then the homework's own paper's.
   */
  studentSheets: Map<number, StudentSheet>;
};

/** How many questions a student answers (their own paper's count in a personalised set). */
export function questionCountOf(context: HomeworkContext): (studentId: number) => number {
  return (studentId) => sheetOfStudent(context, studentId).questions.size;
}

/** The questions and sheet a student answers: their own paper's when they have one, else the homework's. */
export function sheetOfStudent(context: HomeworkContext, studentId: number | null | undefined): StudentSheet {
  return (studentId != null ? context.studentSheets.get(studentId) : undefined) ?? context;
}

export const NO_DOUBLE_MARKING: QuestionSettings = { doubleMarking: false, tolerance: 0 };

export function settingsOf(context: HomeworkContext, questionNo: number): QuestionSettings {
  return context.settings.get(questionNo) ?? NO_DOUBLE_MARKING;
}

/** Who marks a question: its assigned teachers, or the owner when nobody is assigned. */
export function markersOf(context: HomeworkContext, questionNo: number): number[] {
  const assigned = context.assignments.get(questionNo) ?? [];
  if (assigned.length > 0) return assigned;
  return context.homework.createdBy === null ? [] : [context.homework.createdBy];
}

/** The question numbers on one page of the sheet, objective and manual. */
export function pageQuestionNos(template: AnswerSheetTemplate, pageNo: number): { objective: number[]; regions: number[] } {
  const page = template.pages.find((p) => p.page === pageNo);
  if (!page) return { objective: [], regions: [] };
  return { objective: page.objective.map((o) => o.questionNo), regions: page.regions.map((r) => r.questionNo) };
}

/** The page of the sheet a question is printed on. */
export function pageOfQuestion(template: AnswerSheetTemplate, questionNo: number): number | null {
  for (const page of template.pages) {
    if (page.objective.some((o) => o.questionNo === questionNo) || page.regions.some((r) => r.questionNo === questionNo)) {
      return page.page;
    }
  }
  return null;
}

export type MarkingContextLoader = ReturnType<typeof createMarkingContextLoader>;

const SHEET_CACHE_MS = 60_000;
const SHEET_CACHE_ENTRIES = 100;

export function createMarkingContextLoader({
  db,
  papers,
  defaultPartialCredit,
}: {
  db: Db;
  papers: Pick<PaperService, 'detailOf'>;
  defaultPartialCredit: number;
}) {
  /** The homework of the school, or null. */
  async function findHomework(orgId: number, homeworkId: number): Promise<HomeworkRow | null> {
    const [row] = await db
      .select()
      .from(homework)
      .where(and(eq(homework.id, homeworkId), eq(homework.orgId, orgId)));
    return row ?? null;
  }

  /**
   * The stored template (the version printed); laid out and stored on first use like the homework
   * service does, so a sheet scanned before anyone asked for the template still finds one.
   */
  async function templateOf(row: HomeworkRow): Promise<AnswerSheetTemplate | null> {
    const stored = async () => {
      const [found] = await db
        .select({ template: answerSheetTemplates.template })
        .from(answerSheetTemplates)
        .where(eq(answerSheetTemplates.homeworkId, row.id))
        .orderBy(desc(answerSheetTemplates.version))
        .limit(1);
      return found ? answerSheetTemplateSchema.parse(found.template) : null;
    };
    const existing = await stored();
    if (existing) return existing;
    let template: AnswerSheetTemplate;
    try {
      template = layoutAnswerSheet(answerSheetSpecOf(row, await papers.detailOf(row.paperId)));
    } catch {
      return null;
    }
    await db
      .insert(answerSheetTemplates)
      .values({ homeworkId: row.id, version: template.version, template })
      .onConflictDoNothing();
    return stored();
  }

  /**
   * The paper's questions and the printed template barely change once sheets are scanned (a paper in use
   * is not edited), and every page needs them: kept for a short while. Settings are always read fresh.
   */
  const sheets = new Map<
    number,
    {
      paperId: number;
      subjectId: number;
      at: number;
      questions: Map<number, ContextQuestion>;
      template: AnswerSheetTemplate;
      studentSheets: Map<number, StudentSheet>;
    }
  >();

  async function questionsOfPapers(paperIds: number[]): Promise<Map<number, Map<number, ContextQuestion>>> {
    const byPaper = new Map<number, Map<number, ContextQuestion>>(paperIds.map((id) => [id, new Map()]));
    if (paperIds.length === 0) return byPaper;
    const rows = await db
      .select({
        paperId: paperQuestions.paperId,
        no: paperQuestions.no,
        questionId: paperQuestions.questionId,
        score: paperQuestions.score,
        type: questions.type,
        answer: questions.answer,
      })
      .from(paperQuestions)
      .innerJoin(questions, eq(questions.id, paperQuestions.questionId))
      .where(inArray(paperQuestions.paperId, paperIds))
      .orderBy(asc(paperQuestions.paperId), asc(paperQuestions.no));
    for (const q of rows) {
      const type = q.type as QuestionType;
      byPaper.get(q.paperId)!.set(q.no, {
        no: q.no,
        questionId: q.questionId,
        type,
        score: q.score,
        key: answerKeyLabels(type, q.answer),
        manual: isManual(type),
      });
    }
    return byPaper;
  }

  /** The per-student papers of a homework (personalised sets); none for an ordinary homework. */
  async function studentSheetsOf(row: HomeworkRow): Promise<Map<number, StudentSheet>> {
    const rows = await db
      .select({
        studentId: homeworkStudentPapers.studentId,
        paperId: homeworkStudentPapers.paperId,
        template: homeworkStudentPapers.template,
      })
      .from(homeworkStudentPapers)
      .where(eq(homeworkStudentPapers.homeworkId, row.id));
    if (rows.length === 0) return new Map();
    const byPaper = await questionsOfPapers([...new Set(rows.map((r) => r.paperId))]);
    return new Map(
      rows.map((r) => [
        r.studentId,
        { questions: byPaper.get(r.paperId) ?? new Map(), template: answerSheetTemplateSchema.parse(r.template) },
      ]),
    );
  }

  async function sheetOf(row: HomeworkRow) {
    const cached = sheets.get(row.id);
    if (cached && cached.paperId === row.paperId && Date.now() - cached.at < SHEET_CACHE_MS) return cached;
    const [byPaper, template, studentSheets, [paper]] = await Promise.all([
      questionsOfPapers([row.paperId]),
      templateOf(row),
      studentSheetsOf(row),
      db.select({ subjectId: paperRows.subjectId }).from(paperRows).where(eq(paperRows.id, row.paperId)),
    ]);
    // A personalised set: the homework-wide list (overview, score table, marking setup) numbers every
    // question any student has, manual where any student's is, so hand-marked answers are marked.
    const questionMap = new Map(byPaper.get(row.paperId)!);
    for (const own of studentSheets.values()) {
      for (const [no, question] of own.questions) {
        const known = questionMap.get(no);
        if (!known || (question.manual && !known.manual)) questionMap.set(no, question);
      }
    }
    const entry = {
      paperId: row.paperId,
      subjectId: paper?.subjectId ?? -1,
      at: Date.now(),
      questions: questionMap,
      template,
      studentSheets,
    };
    if (template) {
      if (sheets.size >= SHEET_CACHE_ENTRIES) sheets.delete(sheets.keys().next().value!);
      sheets.set(row.id, entry as typeof entry & { template: AnswerSheetTemplate });
    }
    return entry;
  }

  async function load(row: HomeworkRow): Promise<HomeworkContext> {
    const [sheet, settingRows, homeworkSettings, assignmentRows] = await Promise.all([
      sheetOf(row),
      db.select().from(markingQuestionSettings).where(eq(markingQuestionSettings.homeworkId, row.id)),
      db.select().from(markingHomeworkSettings).where(eq(markingHomeworkSettings.homeworkId, row.id)),
      db
        .select({ questionNo: markingAssignments.questionNo, userId: markingAssignments.userId })
        .from(markingAssignments)
        .where(eq(markingAssignments.homeworkId, row.id)),
    ]);
    return {
      homework: row,
      orgId: row.orgId,
      subjectId: sheet.subjectId,
      questions: sheet.questions,
      template: sheet.template,
      studentSheets: sheet.studentSheets,
      partialCredit: homeworkSettings[0]?.partialCredit ?? defaultPartialCredit,
      settings: new Map(
        settingRows.map((s) => [s.questionNo, { doubleMarking: s.doubleMarking, tolerance: s.tolerance }] as const),
      ),
      assignments: assignmentRows.reduce(
        (map, a) => map.set(a.questionNo, [...(map.get(a.questionNo) ?? []), a.userId]),
        new Map<number, number[]>(),
      ),
    };
  }

  return {
    findHomework,
    /**
     * The template the homework's sheets were printed with (cached like the questions); with a student
     * code, that student's own sheet when they have one (a personalised set).
     */
    async templateFor(row: HomeworkRow, studentCode?: string): Promise<AnswerSheetTemplate | null> {
      const sheet = await sheetOf(row);
      if (studentCode && sheet.studentSheets.size > 0) {
        const [student] = await db
          .select({ id: students.id })
          .from(students)
          .where(and(eq(students.orgId, row.orgId), eq(students.code, studentCode)));
        const own = student ? sheet.studentSheets.get(student.id) : undefined;
        if (own) return own.template;
      }
      return sheet.template;
    },
    /** The context of a homework of the school, or null when there is none. */
    async forHomework(orgId: number, homeworkId: number): Promise<HomeworkContext | null> {
      const row = await findHomework(orgId, homeworkId);
      return row ? load(row) : null;
    },
    /** The context of a homework of the school, or a 404. */
    async require(orgId: number, homeworkId: number): Promise<HomeworkContext> {
      const row = await findHomework(orgId, homeworkId);
      if (!row) throw ApiError.notFound();
      return load(row);
    },
  };
}
