/**
 * Reads what the statistics need: homework with their questions (keys as bubble labels, options,
 * knowledge points), the enrolled students of their classes, and each student's final marks from
 * question_scores (the single source). All queries filter on the school.
 *
 * Participation rule (the one place to change it): a student of a homework's classes with no
 * question_scores row for that homework has not taken part (缺考 or 未扫描): no marks at all, never 0.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AnalysisQuestion, AnalysisQuestionType, AnalysisStudent } from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import {
  answers,
  classes,
  homework,
  homeworkClasses,
  knowledgePoints,
  paperQuestions,
  papers,
  questionKnowledgePoints,
  questions,
  questionScores,
  students,
  subjects,
} from '../../db/schema';

export type LoadedQuestion = AnalysisQuestion & { questionId: number; stem: string; optionTexts: string[]; keyText: string[] };

export type LoadedHomework = {
  id: number;
  title: string;
  status: string;
  subjectId: number;
  subjectName: string;
  schoolYearId: number;
  startDate: string;
  dueDate: string;
  createdBy: number | null;
  classIds: number[];
  questions: LoadedQuestion[];
};

export type RosterStudent = { id: number; name: string; code: string; classId: number; className: string };

export type StudentMarks = {
  scores: (number | null)[];
  labels: (string[] | null)[];
  answerIds: (number | null)[];
  hasImage: boolean[];
};

/** Bubble labels of a key as recognition stores them (judge 对/错 -> T/F). */
export function keyLabels(type: string, answer: readonly string[]): string[] {
  if (type === 'judge') return [answer[0] === '对' || answer[0] === 'T' ? 'T' : 'F'];
  return [...answer];
}

export type HomeworkFilter = { schoolYearId?: number; subjectId?: number; ids?: number[]; from?: string; to?: string };

/** Homework of the school matching the filter, oldest first, with their questions. */
export async function loadHomework(db: Db, orgId: number, filter: HomeworkFilter): Promise<LoadedHomework[]> {
  const conditions = [eq(homework.orgId, orgId)];
  if (filter.schoolYearId !== undefined) conditions.push(eq(papers.schoolYearId, filter.schoolYearId));
  if (filter.subjectId !== undefined) conditions.push(eq(papers.subjectId, filter.subjectId));
  if (filter.ids !== undefined) conditions.push(inArray(homework.id, filter.ids.length ? filter.ids : [-1]));
  const rows = await db
    .select({
      id: homework.id,
      title: homework.title,
      status: homework.status,
      startDate: homework.startDate,
      dueDate: homework.dueDate,
      createdBy: homework.createdBy,
      paperId: homework.paperId,
      subjectId: papers.subjectId,
      subjectName: subjects.name,
      schoolYearId: papers.schoolYearId,
    })
    .from(homework)
    .innerJoin(papers, eq(papers.id, homework.paperId))
    .innerJoin(subjects, eq(subjects.id, papers.subjectId))
    .where(and(...conditions))
    .orderBy(asc(homework.startDate), asc(homework.id));
  const inRange = rows.filter((r) => (!filter.from || r.startDate >= filter.from) && (!filter.to || r.startDate <= filter.to));
  if (inRange.length === 0) return [];
  const ids = inRange.map((r) => r.id);
  const paperIds = [...new Set(inRange.map((r) => r.paperId))];
  const [classRows, questionRows] = await Promise.all([
    db.select().from(homeworkClasses).where(inArray(homeworkClasses.homeworkId, ids)),
    db
      .select({
        paperId: paperQuestions.paperId,
        no: paperQuestions.no,
        score: paperQuestions.score,
        questionId: questions.id,
        type: questions.type,
        stem: questions.stem,
        options: questions.options,
        answer: questions.answer,
      })
      .from(paperQuestions)
      .innerJoin(questions, eq(questions.id, paperQuestions.questionId))
      .where(inArray(paperQuestions.paperId, paperIds))
      .orderBy(asc(paperQuestions.paperId), asc(paperQuestions.no)),
  ]);
  const questionIds = [...new Set(questionRows.map((q) => q.questionId))];
  const pointRows = questionIds.length
    ? await db
        .select({ questionId: questionKnowledgePoints.questionId, id: knowledgePoints.id, name: knowledgePoints.name })
        .from(questionKnowledgePoints)
        .innerJoin(knowledgePoints, eq(knowledgePoints.id, questionKnowledgePoints.knowledgePointId))
        .where(inArray(questionKnowledgePoints.questionId, questionIds))
    : [];
  return inRange.map((r) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    subjectId: r.subjectId,
    subjectName: r.subjectName,
    schoolYearId: r.schoolYearId,
    startDate: r.startDate,
    dueDate: r.dueDate,
    createdBy: r.createdBy,
    classIds: classRows.filter((c) => c.homeworkId === r.id).map((c) => c.classId),
    questions: questionRows
      .filter((q) => q.paperId === r.paperId)
      .map((q) => {
        const type = q.type as AnalysisQuestionType;
        const choice = type === 'single' || type === 'multiple';
        return {
          no: q.no,
          type,
          full: q.score,
          questionId: q.questionId,
          stem: q.stem,
          optionTexts: q.options,
          keyText: q.answer,
          ...(choice || type === 'judge'
            ? { key: keyLabels(type, q.answer), options: type === 'judge' ? ['T', 'F'] : ['A', 'B', 'C', 'D'] }
            : {}),
          knowledgePoints: pointRows.filter((p) => p.questionId === q.questionId).map((p) => ({ id: p.id, name: p.name })),
        };
      }),
  }));
}

/** Enrolled students of the classes, by class order and code. */
export async function loadRoster(db: Db, orgId: number, classIds: readonly number[]): Promise<RosterStudent[]> {
  if (classIds.length === 0) return [];
  return db
    .select({ id: students.id, name: students.name, code: students.code, classId: students.classId, className: classes.name })
    .from(students)
    .innerJoin(classes, eq(classes.id, students.classId))
    .where(and(eq(students.orgId, orgId), inArray(students.classId, [...classIds])))
    .orderBy(asc(classes.sort), asc(classes.id), asc(students.code));
}

/**
 * Final marks per homework and student, aligned with the homework's questions. Students absent from
 * the map have no mark for the homework (see the participation rule above).
 */
export async function loadMarks(
  db: Db,
  orgId: number,
  list: readonly LoadedHomework[],
  options: { studentIds?: number[]; withAnswers?: boolean } = {},
): Promise<Map<number, Map<number, StudentMarks>>> {
  const result = new Map<number, Map<number, StudentMarks>>();
  if (list.length === 0) return result;
  const ids = list.map((h) => h.id);
  const conditions = [eq(questionScores.orgId, orgId), inArray(questionScores.homeworkId, ids)];
  if (options.studentIds)
    conditions.push(inArray(questionScores.studentId, options.studentIds.length ? options.studentIds : [-1]));
  const rows = await db
    .select({
      homeworkId: questionScores.homeworkId,
      studentId: questionScores.studentId,
      questionNo: questionScores.questionNo,
      score: questionScores.score,
      answerId: questionScores.answerId,
      labels: answers.labels,
      ...(options.withAnswers ? { regionPath: answers.regionPath } : {}),
    })
    .from(questionScores)
    .innerJoin(answers, eq(answers.id, questionScores.answerId))
    .where(and(...conditions));
  const byHomework = new Map(list.map((h) => [h.id, h]));
  for (const row of rows) {
    const hw = byHomework.get(row.homeworkId)!;
    const index = hw.questions.findIndex((q) => q.no === row.questionNo);
    if (index < 0) continue;
    let students = result.get(row.homeworkId);
    if (!students) result.set(row.homeworkId, (students = new Map()));
    let marks = students.get(row.studentId);
    if (!marks) {
      const n = hw.questions.length;
      marks = {
        scores: Array<number | null>(n).fill(null),
        labels: Array<string[] | null>(n).fill(null),
        answerIds: Array<number | null>(n).fill(null),
        hasImage: Array<boolean>(n).fill(false),
      };
      students.set(row.studentId, marks);
    }
    marks.scores[index] = row.score;
    marks.labels[index] = hw.questions[index]!.key ? (row.labels ?? []) : null;
    marks.answerIds[index] = row.answerId;
    marks.hasImage[index] = Boolean((row as { regionPath?: string | null }).regionPath);
  }
  return result;
}

/** The statistics' view of a homework's students: enrolled in its classes (restricted to `classIds`). */
export function analysisStudents(
  hw: LoadedHomework,
  roster: readonly RosterStudent[],
  marks: Map<number, StudentMarks> | undefined,
  classIds?: readonly number[],
): AnalysisStudent[] {
  const wanted = new Set(classIds ?? hw.classIds);
  const empty = hw.questions.map(() => null);
  return roster
    .filter((s) => hw.classIds.includes(s.classId) && wanted.has(s.classId))
    .map((s) => {
      const m = marks?.get(s.id);
      return { studentId: s.id, classId: s.classId, scores: m?.scores ?? empty, labels: m?.labels ?? empty };
    });
}
