/**
 * What recognition, scoring and marking need to know about one homework: the row, its paper's questions
 * with their answer keys mapped to bubble labels, the answer-sheet template it was printed with, the
 * marking settings and the multiple-choice partial credit. Loaded once per page or request, outside
 * transactions. Also the school-scoped "homework or 404" every endpoint starts with.
 */
import { and, asc, desc, eq } from 'drizzle-orm';
import { type AnswerSheetTemplate, answerSheetTemplateSchema } from '../../../src/shared/contract/answer-sheet';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import type { Db } from '../../db/client';
import {
  answerSheetTemplates,
  homework,
  markingAssignments,
  markingHomeworkSettings,
  markingQuestionSettings,
  paperQuestions,
  questions,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { answerSheetSpecOf } from '../papers/homework.service';
import type { PaperService } from '../papers/paper.service';
import { answerKeyLabels, isManual, type QuestionType } from './objective-scoring';

export type HomeworkRow = typeof homework.$inferSelect;

export type ContextQuestion = {
  no: number;
  type: QuestionType;
  score: number;
  /** Bubble labels of the correct answer (objective questions). */
  key: string[];
  manual: boolean;
};

export type QuestionSettings = { doubleMarking: boolean; tolerance: number };

export type HomeworkContext = {
  homework: HomeworkRow;
  orgId: number;
  questions: Map<number, ContextQuestion>;
  /** Null when no sheet can be laid out for the paper (no questions). */
  template: AnswerSheetTemplate | null;
  partialCredit: number;
  settings: Map<number, QuestionSettings>;
  /** Assigned markers per question (none: the owner marks). */
  assignments: Map<number, number[]>;
};

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
    { paperId: number; at: number; questions: Map<number, ContextQuestion>; template: AnswerSheetTemplate }
  >();

  async function sheetOf(row: HomeworkRow) {
    const cached = sheets.get(row.id);
    if (cached && cached.paperId === row.paperId && Date.now() - cached.at < SHEET_CACHE_MS) return cached;
    const [questionRows, template] = await Promise.all([
      db
        .select({ no: paperQuestions.no, score: paperQuestions.score, type: questions.type, answer: questions.answer })
        .from(paperQuestions)
        .innerJoin(questions, eq(questions.id, paperQuestions.questionId))
        .where(eq(paperQuestions.paperId, row.paperId))
        .orderBy(asc(paperQuestions.no)),
      templateOf(row),
    ]);
    const questionMap = new Map<number, ContextQuestion>();
    for (const q of questionRows) {
      const type = q.type as QuestionType;
      questionMap.set(q.no, { no: q.no, type, score: q.score, key: answerKeyLabels(type, q.answer), manual: isManual(type) });
    }
    const entry = { paperId: row.paperId, at: Date.now(), questions: questionMap, template };
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
      questions: sheet.questions,
      template: sheet.template,
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
    /** The template the homework's sheets were printed with (cached like the questions). */
    templateFor: async (row: HomeworkRow) => (await sheetOf(row)).template,
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
