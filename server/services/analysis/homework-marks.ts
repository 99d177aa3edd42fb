/**
 * Reads what the statistics need: homework with their questions (keys as bubble labels, options,
 * knowledge points), the enrolled students of their classes, and each student's final marks from
 * question_scores (the single source). All queries filter on the school.
 *
 * Participation: a student takes part in a homework's statistics when the marking module's student
 * status says 已阅完 (every question has its final mark); 缺考, 未扫描 and 阅卷中 students have no marks
 * there at all, never 0, and are shown apart.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { StudentStatus } from '../../../src/shared/contract/marking';
import type { AnalysisQuestion, AnalysisQuestionType, AnalysisStudent } from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import { decideStudentStatus } from '../marking/student-status';
import {
  classes,
  homework,
  homeworkAbsences,
  homeworkClasses,
  homeworkStudentPapers,
  knowledgePoints,
  paperQuestions,
  papers,
  questionKnowledgePoints,
  questions,
  reviewItems,
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
  /** The marking module's status of the student in the homework; only 'complete' has scores. */
  status: StudentStatus;
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
  // Re-practice (错题重练) homework is not ordinary homework: lists and trends leave it out (redos are
  // counted apart, in the wrong-question book); asked for by id, it is analysed like any homework.
  else conditions.push(sql`not exists (select 1 from rehearse_sets rs where rs.homework_id = ${homework.id})`);
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
  // Indexed once: a semester has thousands of questions (filtering per homework and question is quadratic).
  const questionsOfPaper = new Map<number, typeof questionRows>();
  for (const q of questionRows) questionsOfPaper.set(q.paperId, [...(questionsOfPaper.get(q.paperId) ?? []), q]);
  const pointsOfQuestion = new Map<number, { id: number; name: string }[]>();
  for (const p of pointRows)
    pointsOfQuestion.set(p.questionId, [...(pointsOfQuestion.get(p.questionId) ?? []), { id: p.id, name: p.name }]);
  const classesOf = new Map<number, number[]>();
  for (const c of classRows) classesOf.set(c.homeworkId, [...(classesOf.get(c.homeworkId) ?? []), c.classId]);
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
    classIds: classesOf.get(r.id) ?? [],
    questions: (questionsOfPaper.get(r.paperId) ?? []).map((q) => {
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
        knowledgePoints: [...(pointsOfQuestion.get(q.questionId) ?? [])],
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

/** `a, b, c` of the ids for an `in (...)` list; `-1` for none. */
const inList = (ids: readonly number[]) =>
  sql.join(
    (ids.length ? ids : [-1]).map((id) => sql`${id}`),
    sql`, `,
  );

/** `and student_id in (...)` when only some students are wanted. */
const onlyStudents = (studentIds: readonly number[] | undefined) =>
  studentIds ? sql`and student_id in (${inList(studentIds)})` : sql``;

/** Rows aggregated per homework into one string (`h`, `v`). */
const aggregatedRows = (rows: unknown) => (rows as { rows: { h: number; v: string | null }[] }).rows;

const pairKey = (h: number | null, s: number | null) => `${h}:${s}`;

/**
 * Reads an aggregated `f f f,f f f` string (aggregatedRows' `v`) field by field, without splitting it into
 * pieces: a large school's homework is 40k entries, and the pieces were most of the request's garbage.
 * Every field is read in order: `int()` for whole numbers (ids, counts, question numbers), `num()` for the
 * rest (as Number() of the text), `str()` for text.
 */
class FieldReader {
  private pos = 0;
  constructor(private readonly s: string) {}
  get done() {
    return this.pos >= this.s.length;
  }
  /** The end of the current field (the next space or comma, or the end). */
  private end() {
    const s = this.s;
    let i = this.pos;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 44) break;
      i += 1;
    }
    return i;
  }
  str(): string {
    const end = this.end();
    const text = this.s.slice(this.pos, end);
    this.pos = end + 1;
    return text;
  }
  num(): number {
    return Number(this.str());
  }
  int(): number {
    const s = this.s;
    let i = this.pos;
    let value = 0;
    for (; i < s.length; i += 1) {
      const c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      value = value * 10 + (c - 48);
    }
    const c = i < s.length ? s.charCodeAt(i) : 44;
    // Not plain digits (a sign, a fraction): as Number() reads it.
    if (i === this.pos || (c !== 32 && c !== 44)) return this.num();
    this.pos = i + 1;
    return value;
  }
  /** Skips what is left of the current entry (fields not wanted). */
  nextEntry() {
    const comma = this.s.indexOf(',', this.pos);
    this.pos = comma < 0 ? this.s.length : comma + 1;
  }
  /** Whether the last field read ended its entry. */
  get atEntryStart() {
    return this.pos === 0 || this.s.charCodeAt(this.pos - 1) === 44;
  }
}

/**
 * The facts the status rule reads besides the counts: absences (缺考) and students with an open review
 * item, as `homework:student` keys, with the absences' rows.
 */
async function statusFacts(db: Db, orgId: number, ids: readonly number[]) {
  const [absenceRows, openRows] = await Promise.all([
    db
      .select({ h: homeworkAbsences.homeworkId, s: homeworkAbsences.studentId })
      .from(homeworkAbsences)
      .where(and(eq(homeworkAbsences.orgId, orgId), inArray(homeworkAbsences.homeworkId, [...ids]))),
    db
      .selectDistinct({ h: reviewItems.homeworkId, s: reviewItems.studentId })
      .from(reviewItems)
      .where(and(eq(reviewItems.orgId, orgId), eq(reviewItems.status, 'open'), inArray(reviewItems.homeworkId, [...ids]))),
  ]);
  return {
    absenceRows,
    absent: new Set(absenceRows.map((r) => pairKey(r.h, r.s))),
    blocked: new Set(openRows.map((r) => pairKey(r.h, r.s))),
  };
}

/**
 * The students a personalised re-practice set made papers for, each with the number of questions on
 * their own paper; null for a homework with one paper for everyone. Such a set expects these students
 * only, each complete once their own questions are marked (as the marking module's student status).
 */
export async function ownPaperQuestionCounts(db: Db, orgId: number, homeworkId: number): Promise<Map<number, number> | null> {
  const rows = await db
    .select({ studentId: homeworkStudentPapers.studentId, questions: sql<number>`count(${paperQuestions.id})`.mapWith(Number) })
    .from(homeworkStudentPapers)
    .leftJoin(paperQuestions, eq(paperQuestions.paperId, homeworkStudentPapers.paperId))
    .where(and(eq(homeworkStudentPapers.homeworkId, homeworkId), eq(homeworkStudentPapers.orgId, orgId)))
    .groupBy(homeworkStudentPapers.studentId);
  return rows.length === 0 ? null : new Map(rows.map((r) => [r.studentId, r.questions]));
}

/**
 * Where each student stands in each homework and their final marks, aligned with the homework's
 * questions. The status is decided by the marking module's one rule (decideStudentStatus: 未扫描 / 缺考 /
 * 阅卷中 / 已阅完) from the same facts it reads; only 已阅完 students have marks in the statistics.
 *
 * Speed: the rows are aggregated in the database into one string per homework (scores; answers for the
 * status, with labels, and answer images when asked), so a semester of ~70k question scores crosses into
 * the server as a few dozen values instead of 70k rows; the answers and scores are joined per student
 * in memory, not row by row in SQL.
 */
export async function loadMarks(
  db: Db,
  orgId: number,
  list: readonly LoadedHomework[],
  options: {
    studentIds?: number[];
    labels?: boolean;
    withAnswers?: boolean;
    /** Per homework, the question count of each student with a paper of their own (ownPaperQuestionCounts). */
    ownQuestionCounts?: Map<number, Map<number, number>>;
  } = {},
): Promise<Map<number, Map<number, StudentMarks>>> {
  const result = new Map<number, Map<number, StudentMarks>>();
  if (list.length === 0) return result;
  const ids = list.map((h) => h.id);
  const idList = inList(ids);
  const withLabels = options.labels || options.withAnswers;
  // Answers: "student question [labels [image]]" (labels as letters, ~ for none).
  const answerEntry = options.withAnswers
    ? sql`student_id || ' ' || question_no || ' ' || coalesce(translate(labels::text, '[]", ', ''), '~') || ' ' || (region_path is not null)::int`
    : withLabels
      ? sql`student_id || ' ' || question_no || ' ' || coalesce(translate(labels::text, '[]", ', ''), '~')`
      : sql`student_id || ' ' || question_no`;
  const [scoreRows, answerRows, { absenceRows, absent, blocked }] = await Promise.all([
    db.execute(sql`select homework_id as h, string_agg(student_id || ' ' || question_no || ' ' || score || ' ' || answer_id, ',') as v
      from question_scores where org_id = ${orgId} and homework_id in (${idList}) ${onlyStudents(options.studentIds)} group by homework_id`),
    db.execute(sql`select homework_id as h, string_agg(${answerEntry}, ',') as v
      from answers where org_id = ${orgId} and homework_id in (${idList}) ${onlyStudents(options.studentIds)} group by homework_id`),
    statusFacts(db, orgId, ids),
  ]);
  const byHomework = new Map(list.map((h) => [h.id, h]));
  const empty = (n: number): StudentMarks => ({
    status: 'unscanned',
    scores: Array<number | null>(n).fill(null),
    labels: Array<string[] | null>(n).fill(null),
    answerIds: Array<number | null>(n).fill(null),
    hasImage: Array<boolean>(n).fill(false),
  });
  // Per homework, per student: the answers and scores counted (the status rule's counts).
  const counts = new Map<number, Map<number, { answers: number; scored: number }>>();
  for (const row of aggregatedRows(answerRows)) {
    const hw = byHomework.get(Number(row.h))!;
    const index = new Map(hw.questions.map((q, i) => [q.no, i]));
    let students = result.get(hw.id);
    if (!students) result.set(hw.id, (students = new Map()));
    let countsOf = counts.get(hw.id);
    if (!countsOf) counts.set(hw.id, (countsOf = new Map()));
    const reader = new FieldReader(row.v ?? '');
    while (!reader.done) {
      const studentId = reader.int();
      const qno = reader.int();
      const labels = withLabels ? reader.str() : undefined;
      const image = options.withAnswers ? reader.str() : undefined;
      if (!reader.atEntryStart) reader.nextEntry();
      const c = countsOf.get(studentId);
      if (c) c.answers += 1;
      else countsOf.set(studentId, { answers: 1, scored: 0 });
      const qi = index.get(qno);
      if (qi === undefined) continue;
      let marks = students.get(studentId);
      if (!marks) students.set(studentId, (marks = empty(hw.questions.length)));
      if (withLabels && hw.questions[qi]!.key) marks.labels[qi] = labels === '~' || labels === undefined ? [] : [...labels];
      if (image === '1') marks.hasImage[qi] = true;
    }
  }
  // Per homework, per student: question index, score and answer id, three numbers per score.
  const scoresOf = new Map<number, Map<number, number[]>>();
  for (const row of aggregatedRows(scoreRows)) {
    const hw = byHomework.get(Number(row.h))!;
    const index = new Map(hw.questions.map((q, i) => [q.no, i]));
    const countsOf = counts.get(hw.id);
    let ofHomework = scoresOf.get(hw.id);
    if (!ofHomework) scoresOf.set(hw.id, (ofHomework = new Map()));
    const reader = new FieldReader(row.v ?? '');
    while (!reader.done) {
      const studentId = reader.int();
      const qno = reader.int();
      const score = reader.num();
      const answerId = reader.int();
      if (!reader.atEntryStart) reader.nextEntry();
      const c = countsOf?.get(studentId);
      if (c) c.scored += 1;
      const qi = index.get(qno);
      if (qi === undefined) continue;
      const list = ofHomework.get(studentId);
      if (list) list.push(qi, score, answerId);
      else ofHomework.set(studentId, [qi, score, answerId]);
    }
  }
  for (const hw of list) {
    let students = result.get(hw.id);
    if (!students) result.set(hw.id, (students = new Map()));
    const countsOf = counts.get(hw.id);
    const scoresOfHomework = scoresOf.get(hw.id);
    for (const [studentId, marks] of students) {
      const key = pairKey(hw.id, studentId);
      const expected = options.ownQuestionCounts?.get(hw.id)?.get(studentId) ?? hw.questions.length;
      marks.status = decideStudentStatus(countsOf?.get(studentId), absent.has(key), blocked.has(key), expected);
      if (marks.status !== 'complete') {
        // Only final marks count: a student still being marked has none yet (shown as 阅卷中).
        marks.labels.fill(null);
        continue;
      }
      const scored = scoresOfHomework?.get(studentId);
      if (!scored) continue;
      for (let i = 0; i < scored.length; i += 3) {
        const qi = scored[i]!;
        marks.scores[qi] = scored[i + 1]!;
        marks.answerIds[qi] = scored[i + 2]!;
      }
    }
    for (const row of absenceRows) {
      if (row.h === hw.id && !students.has(row.s)) students.set(row.s, { ...empty(hw.questions.length), status: 'absent' });
    }
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

/** Sums over a class's complete (已阅完) students for one question. */
export type QuestionSums = { n: number; sum: number; squares: number };

export type HomeworkTotals = {
  /** Status of each student with any answer, score or absence; total only when complete. */
  students: Map<number, { status: StudentStatus; total: number | null }>;
  /** Per class: per question (in the homework's order), sums over the class's complete students. */
  classes: Map<number, QuestionSums[]>;
};

/**
 * The grade, class, student-trend, data-centre and big-data views' reading of the final marks, from the
 * pre-aggregates (migration 0020: homework_student_totals, homework_class_question_totals, kept by
 * triggers in the same transaction as every write of answers and question_scores): one row per student
 * and homework instead of one per question. The status is decided by the same rule as loadMarks
 * (decideStudentStatus over the counts of answers and scores, the absences and the open review items), so
 * the same students take part. The class sums hold every score written for the class; the scores of the
 * students who are not complete (阅卷中: few, once a homework is marked) are read and taken away, so the
 * sums are over exactly the participants.
 */
export async function loadTotals(
  db: Db,
  orgId: number,
  list: readonly LoadedHomework[],
  /** Only these students (a class's roster), without the class sums: the student page's class figures. */
  options: { studentIds?: readonly number[] } = {},
): Promise<Map<number, HomeworkTotals>> {
  const result = new Map<number, HomeworkTotals>();
  if (list.length === 0) return result;
  const ids = list.map((h) => h.id);
  const idList = inList(ids);
  const [studentRows, classRows, { absenceRows, absent, blocked }] = await Promise.all([
    db.execute(sql`select homework_id as h, string_agg(student_id || ' ' || answer_count || ' ' || score_count || ' ' || total, ',') as v
      from homework_student_totals where org_id = ${orgId} and homework_id in (${idList}) ${onlyStudents(options.studentIds)} group by homework_id`),
    db.execute(sql`select homework_id as h,
        string_agg(class_id || ' ' || question_no || ' ' || score_count || ' ' || total || ' ' || total_squares, ',') as v
      from homework_class_question_totals where org_id = ${orgId} and homework_id in (${idList}) and score_count > 0
        and ${options.studentIds ? sql`false` : sql`true`}
      group by homework_id`),
    statusFacts(db, orgId, ids),
  ]);
  const byHomework = new Map(list.map((h) => [h.id, h]));
  for (const hw of list) result.set(hw.id, { students: new Map(), classes: new Map() });
  const factsKnown = absent.size > 0 || blocked.size > 0;
  // Students with scores who are not complete: their scores are taken out of the class sums below.
  const unfinished: { h: number; s: number }[] = [];
  for (const row of aggregatedRows(studentRows)) {
    const hw = byHomework.get(Number(row.h))!;
    const totals = result.get(hw.id)!;
    const reader = new FieldReader(row.v ?? '');
    while (!reader.done) {
      const studentId = reader.int();
      const answerCount = reader.int();
      const scoreCount = reader.int();
      const total = reader.num();
      if (!reader.atEntryStart) reader.nextEntry();
      // The `homework:student` key only when some student of the homeworks is absent or blocked.
      const key = factsKnown ? pairKey(hw.id, studentId) : '';
      const status = decideStudentStatus(
        answerCount > 0 ? { answers: answerCount, scored: scoreCount } : undefined,
        factsKnown && absent.has(key),
        factsKnown && blocked.has(key),
        hw.questions.length,
      );
      totals.students.set(studentId, { status, total: status === 'complete' ? total : null });
      if (status !== 'complete' && scoreCount > 0) unfinished.push({ h: hw.id, s: studentId });
    }
  }
  const wantedStudents = options.studentIds ? new Set(options.studentIds) : null;
  for (const row of absenceRows) {
    if (wantedStudents && !wantedStudents.has(row.s)) continue;
    const totals = result.get(row.h)!;
    if (!totals.students.has(row.s)) totals.students.set(row.s, { status: 'absent', total: null });
  }
  const questionIndex = new Map(list.map((hw) => [hw.id, new Map(hw.questions.map((q, i) => [q.no, i]))]));
  for (const row of aggregatedRows(classRows)) {
    const hw = byHomework.get(Number(row.h))!;
    const index = questionIndex.get(hw.id)!;
    const totals = result.get(hw.id)!;
    const reader = new FieldReader(row.v ?? '');
    while (!reader.done) {
      const classId = reader.int();
      const qno = reader.int();
      const n = reader.int();
      const total = reader.num();
      const squares = reader.num();
      if (!reader.atEntryStart) reader.nextEntry();
      const qi = index.get(qno);
      if (qi === undefined) continue;
      let sums = totals.classes.get(classId);
      if (!sums) totals.classes.set(classId, (sums = hw.questions.map(() => ({ n: 0, sum: 0, squares: 0 }))));
      sums[qi] = { n, sum: total, squares };
    }
  }
  if (unfinished.length > 0 && !options.studentIds) {
    const pairs = sql.join(
      unfinished.map((p) => sql`(${p.h}, ${p.s})`),
      sql`, `,
    );
    const { rows } =
      (await db.execute(sql`select q.homework_id as h, s.class_id as c, q.question_no as no, q.score::float8 as score
      from question_scores q join students s on s.id = q.student_id
      where q.org_id = ${orgId} and (q.homework_id, q.student_id) in (${pairs})`)) as unknown as {
        rows: { h: number; c: number; no: number; score: number }[];
      };
    for (const r of rows) {
      const qi = questionIndex.get(Number(r.h))?.get(Number(r.no));
      const sums = result.get(Number(r.h))?.classes.get(Number(r.c));
      if (qi === undefined || !sums) continue;
      const score = Number(r.score);
      sums[qi] = { n: sums[qi]!.n - 1, sum: sums[qi]!.sum - score, squares: sums[qi]!.squares - score * score };
    }
  }
  return result;
}

/** A homework's participants (complete students) of the classes, in roster order, with their totals. */
export function participantsOf(
  hw: LoadedHomework,
  roster: readonly RosterStudent[],
  totals: HomeworkTotals | undefined,
  classIds?: readonly number[],
): { enrolled: RosterStudent[]; present: { student: RosterStudent; total: number }[] } {
  const assigned = new Set(hw.classIds);
  const wanted = new Set(classIds ?? hw.classIds);
  const enrolled = roster.filter((s) => assigned.has(s.classId) && wanted.has(s.classId));
  const present: { student: RosterStudent; total: number }[] = [];
  for (const student of enrolled) {
    const entry = totals?.students.get(student.id);
    if (entry?.status === 'complete' && entry.total !== null) present.push({ student, total: entry.total });
  }
  return { enrolled, present };
}

/** Per-question sums over the complete students of the classes (added class by class). */
export function questionSumsOf(
  hw: LoadedHomework,
  totals: HomeworkTotals | undefined,
  classIds: readonly number[],
): QuestionSums[] {
  const out = hw.questions.map(() => ({ n: 0, sum: 0, squares: 0 }));
  for (const classId of classIds) {
    const sums = totals?.classes.get(classId);
    if (!sums || !hw.classIds.includes(classId)) continue;
    sums.forEach((s, qi) => {
      out[qi]!.n += s.n;
      out[qi]!.sum += s.sum;
      out[qi]!.squares += s.squares;
    });
  }
  return out;
}
