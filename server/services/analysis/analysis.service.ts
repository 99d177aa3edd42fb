/**
 * Learning analysis: the grade, class and student views, one homework's analysis (served to 数据分析,
 * 作业讲评, 作业详情 and 报告 alike), the data centre and the big-data screen. Every figure comes from
 * src/shared/lib/analysis-stats.ts over the final marks in question_scores; the scope comes from the
 * session (analysis-scope.ts), never from the filters.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type {
  HomeworkProjection,
  AnalysisOptions,
  AnalysisOverview,
  AverageScore,
  BigData,
  ClassFilter,
  ClassRoster,
  ClassRosterQuery,
  CorrectScore,
  DataCenterFilter,
  GradeFilter,
  HomeworkAnalysis,
  HomeworkSummary,
  PersonAnalysis,
  PersonFilter,
  RankSetting,
  SubjectStats,
} from '../../../src/shared/contract/analysis';
import { ANALYSIS_MESSAGES } from '../../../src/shared/contract/analysis';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import {
  analyseHomework,
  competitionRanks,
  difference,
  GRADE_BANDS,
  gradeBand,
  masteryOf,
  mean,
  ranksAllowed,
  scoreBands,
  studentCounts,
  summariseHomework,
  summariseTotals,
  type TotalsSummary,
  type MasteryItem,
} from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import { classes, homeworkStudentTotals, orgs, students, subjects, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { requirePermission } from '../org/permissions';
import { renderHomeworkReportDocx } from './homework-report-docx';
import { canSee, requireGradeDirector, resolveAnalysisScope, type AnalysisScope } from './analysis-scope';
import {
  analysisStudents,
  loadHomework,
  loadMarks,
  loadRoster,
  loadTotals,
  ownPaperQuestionCounts,
  participantsOf,
  questionSumsOf,
  type HomeworkTotals,
  type LoadedHomework,
  type RosterStudent,
} from './homework-marks';

export type AnalysisService = ReturnType<typeof createAnalysisService>;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
/** The 优秀 / 良好 / 及格 / 低分 lines of a homework: its school year and subject's, else the school's. */
const linesOf = (scope: Pick<AnalysisScope, 'linesFor'>, hw: Pick<LoadedHomework, 'schoolYearId' | 'subjectId'>) =>
  scope.linesFor(hw.schoolYearId, hw.subjectId);

/** One homework's statistics with its lines (linesOf). */
const analyse = (
  scope: Pick<AnalysisScope, 'linesFor'>,
  hw: LoadedHomework,
  students: Parameters<typeof analyseHomework>[1],
  options: { ranks?: boolean } = {},
) => analyseHomework(hw.questions, students, { ...options, lines: linesOf(scope, hw) });

/** Whether some student of the classes has a final mark (已阅完) in the homework. */
function isMarked(
  hw: LoadedHomework,
  totals: Map<number, HomeworkTotals>,
  classIds: readonly number[],
  roster: readonly RosterStudent[],
) {
  const students = totals.get(hw.id)?.students;
  if (!students) return false;
  const wanted = new Set(classIds);
  return roster.some(
    (s) => wanted.has(s.classId) && hw.classIds.includes(s.classId) && students.get(s.id)?.status === 'complete',
  );
}

/**
 * A homework's summary over the classes from the pre-aggregated totals (summariseTotals, the function
 * analyseHomework uses for the same fields), with the participants it was computed over.
 */
function summaryFromTotals(
  scope: Pick<AnalysisScope, 'linesFor'>,
  hw: LoadedHomework,
  roster: readonly RosterStudent[],
  totals: HomeworkTotals | undefined,
  classIds: readonly number[],
) {
  const { enrolled, present } = participantsOf(hw, roster, totals, classIds);
  const values = present.map((p) => p.total);
  const items = questionSumsOf(hw, totals, classIds).map((q, qi) => ({
    sum: q.sum,
    squares: q.squares,
    full: hw.questions[qi]!.full,
  }));
  const summary = summariseTotals(
    sum(hw.questions.map((q) => q.full)),
    enrolled.length,
    values,
    { n: present.length, totalSum: sum(values), totalSquares: sum(values.map((v) => v * v)), items },
    linesOf(scope, hw),
  );
  return { summary, enrolled, present };
}

/** A student's competition rank by total among those present; null when they are not among them. */
function rankAmong(present: readonly { student: { id: number }; total: number }[], studentId: number): number | null {
  const index = present.findIndex((p) => p.student.id === studentId);
  return index >= 0 ? competitionRanks(present.map((p) => p.total))[index]! : null;
}

/** Rows of the knowledge-point heat map. */
const HEATMAP_POINTS = 30;

/** The summary part of a homework's statistics (what the contract calls HomeworkSummary). */
export function summaryOf(stats: TotalsSummary): HomeworkSummary {
  const { full, participation, totals, scoreRate, levels, bands, gradeBands, reliability } = stats;
  return { full, participation, totals, scoreRate, levels, bands, gradeBands, reliability };
}

export function createAnalysisService({ db }: { db: Db }) {
  async function schoolYearsOf(orgId: number) {
    return db
      .select({ id: classes.id, name: classes.name, ranksEnabled: classes.ranksEnabled })
      .from(classes)
      .where(and(eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.schoolYear)))
      .orderBy(asc(classes.sort), asc(classes.id));
  }

  async function classesOf(orgId: number) {
    return db
      .select({ id: classes.id, name: classes.name, schoolYearId: classes.pid })
      .from(classes)
      .where(and(eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.klass)))
      .orderBy(asc(classes.sort), asc(classes.id));
  }

  async function requireSchoolYear(scope: AnalysisScope, schoolYearId: number) {
    const year = (await schoolYearsOf(scope.orgId)).find((y) => y.id === schoolYearId);
    if (!year) throw ApiError.notFound();
    return { id: year.id, name: year.name, ranksAllowed: ranksAllowed(year.name, scope.schoolType, year.ranksEnabled) };
  }

  async function requireSubject(scope: AnalysisScope, subjectId: number) {
    const [row] = await db
      .select({ id: subjects.id, name: subjects.name })
      .from(subjects)
      .where(and(eq(subjects.id, subjectId), eq(subjects.orgId, scope.orgId)));
    if (!row) throw ApiError.notFound();
    return row;
  }

  /** The classes of a homework the caller may see. */
  const visibleClassesOf = (scope: AnalysisScope, hw: LoadedHomework) =>
    hw.classIds.filter((id) => canSee(scope, id, hw.subjectId));

  /**
   * Grade (every visible class of the school year) or class view over a subject and date range.
   * `classId` narrows the view to one class; the grade figures stay beside it for comparison.
   */
  async function overview(
    scope: AnalysisScope,
    input: { schoolYearId: number; subjectId: number; classId: number | null; from?: string; to?: string; title: string },
  ): Promise<AnalysisOverview> {
    const year = await requireSchoolYear(scope, input.schoolYearId);
    const allClasses = (await classesOf(scope.orgId)).filter((c) => c.schoolYearId === year.id);
    const gradeClassIds = allClasses.filter((c) => canSee(scope, c.id, input.subjectId)).map((c) => c.id);
    const viewClassIds = input.classId === null ? gradeClassIds : [input.classId];
    const lines = scope.linesFor(year.id, input.subjectId);
    const candidates = (
      await loadHomework(db, scope.orgId, { schoolYearId: year.id, subjectId: input.subjectId, from: input.from, to: input.to })
    ).filter((hw) => hw.classIds.some((id) => viewClassIds.includes(id)));
    // Speed: totals and per-class question sums from the pre-aggregates (loadTotals), never the marks;
    // read while the roster is.
    const [roster, totals] = await Promise.all([
      loadRoster(db, scope.orgId, gradeClassIds),
      loadTotals(db, scope.orgId, candidates),
    ]);
    // Homework nobody has a final mark in yet (not scanned or still being marked) are not in the trend:
    // they would read as 0 participants.
    const list = candidates.filter((hw) => isMarked(hw, totals, viewClassIds, roster));
    const perStudent = new Map<number, { score: number; full: number; taken: number; absent: number }>();
    const mastery = new Map<number, MasteryItem[]>();
    const homeworkOut: AnalysisOverview['homework'] = [];
    // Grade and per-class sums of totals and full marks (score rates weighted by participants).
    let gradeScore = 0;
    let gradeFull = 0;
    const classScore = new Map<number, { score: number; full: number }>();
    // Each class's students (in roster order): a class's figures read its own students, not the grade's.
    const rosterOfClass = new Map<number, RosterStudent[]>();
    for (const s of roster) {
      const ofClass = rosterOfClass.get(s.classId);
      if (ofClass) ofClass.push(s);
      else rosterOfClass.set(s.classId, [s]);
    }
    for (const hw of list) {
      const t = totals.get(hw.id);
      const grade = summaryFromTotals(scope, hw, roster, t, gradeClassIds);
      const view = input.classId === null ? grade : summaryFromTotals(scope, hw, roster, t, viewClassIds);
      const fullMark = sum(hw.questions.map((q) => q.full));
      const classRows = hw.classIds
        .filter((id) => gradeClassIds.includes(id))
        .map((classId) => {
          // Only the four figures the row shows, computed as summaryFromTotals does (mean of the totals,
          // over the full mark), not the class's whole summary.
          const { enrolled, present } = participantsOf(hw, rosterOfClass.get(classId) ?? [], t, [classId]);
          const classMean = mean(present.map((p) => p.total));
          return {
            classId,
            scoreRate: classMean === null || fullMark <= 0 ? null : classMean / fullMark,
            mean: classMean,
            participants: present.length,
            enrolled: enrolled.length,
          };
        });
      homeworkOut.push({
        id: hw.id,
        title: hw.title,
        startDate: hw.startDate,
        summary: view.summary,
        gradeScoreRate: grade.summary.scoreRate,
        classes: classRows,
      });
      // The participants are the enrolled students with a total, in the same order: walked side by side.
      let next = 0;
      for (const s of view.enrolled) {
        let entry = perStudent.get(s.id);
        if (!entry) perStudent.set(s.id, (entry = { score: 0, full: 0, taken: 0, absent: 0 }));
        const present = view.present[next];
        const total = present?.student === s ? ((next += 1), present.total) : undefined;
        if (total !== undefined) {
          entry.score += total;
          entry.full += view.summary.full;
          entry.taken += 1;
        } else entry.absent += 1;
      }
      for (const p of grade.present) {
        gradeScore += p.total;
        gradeFull += grade.summary.full;
        const c = classScore.get(p.student.classId) ?? { score: 0, full: 0 };
        c.score += p.total;
        c.full += grade.summary.full;
        classScore.set(p.student.classId, c);
      }
      // Mastery per class: one item per question and point carrying the class's sum and full marks.
      for (const classId of hw.classIds.filter((id) => gradeClassIds.includes(id))) {
        const sums = questionSumsOf(hw, t, [classId]);
        hw.questions.forEach((q, qi) => {
          const { n, sum: score } = sums[qi]!;
          if (n === 0) return;
          for (const p of q.knowledgePoints ?? []) {
            const items = mastery.get(classId) ?? [];
            items.push({ pointId: p.id, pointName: p.name, questionKey: `${hw.id}:${q.no}`, score, full: n * q.full });
            mastery.set(classId, items);
          }
        });
      }
    }
    const viewRoster = roster.filter((s) => viewClassIds.includes(s.classId));
    const studentRates = viewRoster.map((s) => {
      const e = perStudent.get(s.id);
      return { s, e, rate: e && e.full > 0 ? e.score / e.full : null };
    });
    const taken = studentRates.filter((r) => r.rate !== null);
    const ranks = new Map<number, number>();
    if (year.ranksAllowed) {
      // Competition ranks: 1 + how many rates are above this one (binary search in the sorted rates).
      const rates = taken.map((r) => r.rate!).sort((a, b) => b - a);
      for (const r of taken) {
        let lo = 0;
        let hi = rates.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (rates[mid]! > r.rate! + 1e-9) lo = mid + 1;
          else hi = mid;
        }
        ranks.set(r.s.id, 1 + lo);
      }
    }
    const participants = sum(homeworkOut.map((h) => h.summary.participation.participants));
    const enrolled = sum(homeworkOut.map((h) => h.summary.participation.enrolled));
    const marksSum = sum(taken.map((r) => r.e!.score));
    const fullSum = sum(taken.map((r) => r.e!.full));
    // Grade: every visible class, whatever the view.
    const gradeRate = gradeFull > 0 ? gradeScore / gradeFull : null;
    const heatClasses = allClasses.filter((c) => viewClassIds.includes(c.id) || input.classId === null);
    const heatClassList = heatClasses.filter((c) => gradeClassIds.includes(c.id));
    const perClassMastery = heatClassList.map((c) => masteryOf(mastery.get(c.id) ?? []));
    // Points with enough questions only, weakest first, at most HEATMAP_POINTS rows.
    const allMastery = masteryOf([...mastery.entries()].filter(([id]) => viewClassIds.includes(id)).flatMap(([, items]) => items))
      .filter((p) => p.mastery !== null)
      .sort((a, b) => a.mastery! - b.mastery!)
      .slice(0, HEATMAP_POINTS);
    return {
      scope: { schoolYearId: year.id, subjectId: input.subjectId, classId: input.classId, title: input.title },
      ranksAllowed: year.ranksAllowed,
      lines,
      homework: homeworkOut,
      totals: {
        homeworkCount: list.length,
        participants,
        enrolled,
        scoreRate: fullSum > 0 ? marksSum / fullSum : null,
        gradeScoreRate: gradeRate,
        gradeBands: GRADE_BANDS.map((band) => ({
          band,
          count: taken.filter((r) => gradeBand(r.e!.score, r.e!.full, lines) === band).length,
        })),
        bands: scoreBands(
          taken.map((r) => r.rate!),
          1,
        ),
      },
      classes: heatClassList.map((c) => {
        const rows = homeworkOut.flatMap((h) => h.classes.filter((k) => k.classId === c.id));
        const scored = classScore.get(c.id);
        return {
          classId: c.id,
          name: c.name,
          scoreRate: scored && scored.full > 0 ? scored.score / scored.full : null,
          participants: sum(rows.map((r) => r.participants)),
          enrolled: sum(rows.map((r) => r.enrolled)),
        };
      }),
      heatmap: {
        classes: heatClassList.map((c) => ({ id: c.id, name: c.name })),
        points: allMastery.map((p) => ({ id: p.id, name: p.name, questionCount: p.questionCount })),
        cells: allMastery.map((p) =>
          perClassMastery.map((list) => {
            const cell = list.find((x) => x.id === p.id);
            return cell && cell.questionCount >= 3 ? cell.rawRate : null;
          }),
        ),
      },
      students: studentRates.map(({ s, e, rate }) => ({
        studentId: s.id,
        name: s.name,
        code: s.code,
        classId: s.classId,
        className: s.className,
        scoreRate: rate,
        band: e && rate !== null ? gradeBand(e.score, e.full, lines) : null,
        taken: e?.taken ?? 0,
        absent: e?.absent ?? 0,
        rank: ranks.get(s.id) ?? null,
      })),
    };
  }

  async function homeworkAnalysis(scope: AnalysisScope, homeworkId: number, classId?: number): Promise<HomeworkAnalysis> {
    const [hw] = await loadHomework(db, scope.orgId, { ids: [homeworkId] });
    if (!hw) throw ApiError.notFound();
    const visible = visibleClassesOf(scope, hw);
    if (visible.length === 0) throw ApiError.notFound();
    if (classId !== undefined && !visible.includes(classId)) throw ApiError.badRequest('班级不在此作业的范围内');
    // A personalised set expects the students it made papers for, each on their own questions: the same
    // roster and the same 已阅完 as its score table (marking/student-status.ts). Read side by side.
    const [year, own, enrolled] = await Promise.all([
      requireSchoolYear(scope, hw.schoolYearId),
      ownPaperQuestionCounts(db, scope.orgId, hw.id),
      loadRoster(db, scope.orgId, visible),
    ]);
    const marks = (
      await loadMarks(db, scope.orgId, [hw], {
        withAnswers: true,
        ...(own ? { ownQuestionCounts: new Map([[hw.id, own]]) } : {}),
      })
    ).get(hw.id);
    const handedIn = (id: number) => {
      const status = marks?.get(id)?.status;
      return status === 'marking' || status === 'complete';
    };
    const roster = own ? enrolled.filter((s) => own.has(s.id) || handedIn(s.id)) : enrolled;
    const viewIds = classId === undefined ? visible : [classId];
    const gradeStudents = analysisStudents(hw, roster, marks, visible);
    const grade = analyse(scope, hw, gradeStudents, { ranks: year.ranksAllowed });
    const view =
      classId === undefined
        ? grade
        : analyse(
            scope,
            hw,
            gradeStudents.filter((s) => viewIds.includes(s.classId)),
          );
    const classNames = new Map(enrolled.map((s) => [s.classId, s.className]));
    const byStudent = new Map(grade.students.map((s) => [s.studentId, s]));
    const viewStats = new Map(view.students.map((s) => [s.studentId, s]));
    return {
      homework: {
        id: hw.id,
        title: hw.title,
        subjectId: hw.subjectId,
        subjectName: hw.subjectName,
        startDate: hw.startDate,
        dueDate: hw.dueDate,
        status: hw.status,
      },
      classes: visible.map((id) => ({ id, name: classNames.get(id) ?? '' })),
      classId: classId ?? null,
      ranksAllowed: year.ranksAllowed,
      lines: linesOf(scope, hw),
      summary: summaryOf(view),
      gradeSummary: summaryOf(grade),
      classSummaries: visible.map((id) => ({
        classId: id,
        name: classNames.get(id) ?? '',
        // Only the summary (summariseHomework: analyseHomework's summary fields, computed the same way).
        summary: summaryOf(
          summariseHomework(
            hw.questions,
            gradeStudents.filter((s) => s.classId === id),
            { lines: linesOf(scope, hw) },
          ),
        ),
      })),
      questions: view.questions.map((q, i) => {
        const meta = hw.questions[i]!;
        return {
          ...q,
          stem: meta.stem,
          optionTexts: meta.optionTexts,
          key: [...(meta.key ?? meta.keyText)],
          knowledgePoints: [...(meta.knowledgePoints ?? [])],
        };
      }),
      knowledgePoints: view.knowledgePoints,
      students: roster
        .filter((s) => viewIds.includes(s.classId))
        .map((s) => {
          const m = marks?.get(s.id);
          const stats = viewStats.get(s.id);
          const ranked = byStudent.get(s.id);
          const n = hw.questions.length;
          return {
            studentId: s.id,
            name: s.name,
            code: s.code,
            classId: s.classId,
            className: s.className,
            absent: !stats,
            status: m?.status ?? 'unscanned',
            total: stats?.total ?? null,
            band: stats?.band ?? null,
            right: stats?.right ?? 0,
            wrong: stats?.wrong ?? 0,
            blank: stats?.blank ?? 0,
            classRank: ranked?.classRank ?? null,
            rank: ranked?.rank ?? null,
            scores: m?.scores ?? Array<null>(n).fill(null),
            labels: m?.labels ?? Array<null>(n).fill(null),
            answerIds: m?.answerIds ?? Array<null>(n).fill(null),
            hasImage: m?.hasImage ?? Array<boolean>(n).fill(false),
          };
        }),
    };
  }

  async function person(scope: AnalysisScope, filter: PersonFilter): Promise<PersonAnalysis> {
    const [student] = await db
      .select({
        id: students.id,
        name: students.name,
        code: students.code,
        classId: students.classId,
        className: classes.name,
        schoolYearId: classes.pid,
      })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .where(and(eq(students.id, filter.studentId), eq(students.orgId, scope.orgId)));
    if (!student) throw ApiError.notFound();
    const subject = await requireSubject(scope, filter.subjectId);
    if (!canSee(scope, student.classId, subject.id)) throw ApiError.notFound();
    const year = await requireSchoolYear(scope, student.schoolYearId!);
    const lines = scope.linesFor(year.id, subject.id);
    const candidates = (
      await loadHomework(db, scope.orgId, { schoolYearId: year.id, subjectId: subject.id, from: filter.from, to: filter.to })
    ).filter((hw) => hw.classIds.includes(student.classId));
    const roster = await loadRoster(db, scope.orgId, [student.classId]);
    // The class's figures from the pre-aggregated totals; the marks (with the answers read) of this
    // student only.
    const [totals, marks] = await Promise.all([
      loadTotals(db, scope.orgId, candidates, { studentIds: roster.map((s) => s.id) }),
      loadMarks(db, scope.orgId, candidates, { labels: true, studentIds: [student.id] }),
    ]);
    const list = candidates.filter((hw) => isMarked(hw, totals, [student.classId], roster));
    // Where the school year allows ranks: the grade's totals too (every class the homework was set to).
    const gradeRoster = year.ranksAllowed
      ? await loadRoster(db, scope.orgId, [...new Set(list.flatMap((hw) => hw.classIds))])
      : [];
    const gradeTotals = year.ranksAllowed
      ? await loadTotals(db, scope.orgId, list, { studentIds: gradeRoster.map((s) => s.id) })
      : undefined;
    const gradeRankOf = (hw: LoadedHomework): number | null => {
      if (!gradeTotals) return null;
      return rankAmong(participantsOf(hw, gradeRoster, gradeTotals.get(hw.id), hw.classIds).present, student.id);
    };
    const items: MasteryItem[] = [];
    const wrong: PersonAnalysis['wrongQuestions'] = [];
    const trend = list.map((hw) => {
      const klass = summaryFromTotals(scope, hw, roster, totals.get(hw.id), [student.classId]);
      const classStats = klass.summary;
      const mineIndex = klass.present.findIndex((p) => p.student.id === student.id);
      const m = mineIndex >= 0 ? marks.get(hw.id)?.get(student.id) : undefined;
      // The same rules as analyseHomework: competition ranks in the class, counts from the marks.
      const mine =
        mineIndex >= 0
          ? (() => {
              const total = klass.present[mineIndex]!.total;
              const counts = m ? studentCounts(hw.questions, m) : { right: 0, wrong: 0, blank: 0 };
              return {
                total,
                scoreRate: classStats.full > 0 ? total / classStats.full : 0,
                band: gradeBand(total, classStats.full, lines),
                ...counts,
                classRank: year.ranksAllowed ? rankAmong(klass.present, student.id) : null,
                gradeRank: gradeRankOf(hw),
              };
            })()
          : undefined;
      if (m) {
        hw.questions.forEach((q, qi) => {
          const score = m.scores[qi];
          if (score === null || score === undefined) return;
          for (const p of q.knowledgePoints ?? []) {
            items.push({ pointId: p.id, pointName: p.name, questionKey: `${hw.id}:${q.no}`, score, full: q.full });
          }
          if (score < q.full - 1e-9)
            wrong.push({ homeworkId: hw.id, title: hw.title, no: q.no, stem: q.stem, score, full: q.full });
        });
      }
      return {
        homeworkId: hw.id,
        title: hw.title,
        startDate: hw.startDate,
        absent: !mine,
        total: mine?.total ?? null,
        full: classStats.full,
        scoreRate: mine ? mine.scoreRate : null,
        classScoreRate: classStats.scoreRate,
        band: mine?.band ?? null,
        right: mine?.right ?? 0,
        wrong: mine?.wrong ?? 0,
        blank: mine?.blank ?? 0,
        classRank: mine?.classRank ?? null,
        gradeRank: mine?.gradeRank ?? null,
      };
    });
    const taken = trend.filter((t) => !t.absent);
    const score = sum(taken.map((t) => t.total ?? 0));
    const full = sum(taken.map((t) => t.full));
    return {
      student: { id: student.id, name: student.name, code: student.code, className: student.className, classId: student.classId },
      subject,
      ranksAllowed: year.ranksAllowed,
      trend,
      summary: {
        taken: taken.length,
        absent: trend.length - taken.length,
        scoreRate: full > 0 ? score / full : null,
        band: full > 0 ? gradeBand(score, full, lines) : null,
      },
      knowledgePoints: masteryOf(items),
      wrongQuestions: wrong.reverse().slice(0, 30),
    };
  }

  /**
   * 阅卷统计's marking figures per class and teacher from the scored tasks per hour after the due day
   * began: the count, the on-time count (hours 0-23 and before) and the median hours, exact as
   * percentile_cont(0.5) over every task would give it: the hours give the rank(s) of the middle task(s)
   * and only the tasks scored in those one or two hours are read and sorted.
   */
  async function markingSpeed(
    orgId: number,
    homeworkIds: readonly number[],
    hours: readonly { classId: number; teacherId: number | null; hour: number; n: number }[],
  ) {
    const groups = new Map<string, { classId: number; teacherId: number | null; hours: { hour: number; n: number }[] }>();
    for (const r of hours) {
      const key = `${r.classId}:${r.teacherId}`;
      const group = groups.get(key) ?? { classId: Number(r.classId), teacherId: r.teacherId, hours: [] };
      group.hours.push({ hour: Number(r.hour), n: Number(r.n) });
      groups.set(key, group);
    }
    const out = [...groups.values()].map((g) => {
      g.hours.sort((a, b) => a.hour - b.hour);
      const n = sum(g.hours.map((h) => h.n));
      const onTime = sum(g.hours.filter((h) => h.hour < 24).map((h) => h.n));
      // percentile_cont(0.5): the values at 0-based ranks floor and ceil of (n - 1) / 2.
      const ranks = [Math.floor((n - 1) / 2), Math.ceil((n - 1) / 2)].map((rank) => {
        let before = 0;
        for (const h of g.hours) {
          if (rank < before + h.n) return { hour: h.hour, index: rank - before };
          before += h.n;
        }
        return null;
      });
      return { ...g, n, onTime, ranks, median: null as number | null };
    });
    // Per group and hour holding a middle rank: the tasks from the first wanted rank within the hour (one or
    // two), sorted in the database.
    const wanted = out.flatMap((g) => {
      if (g.n === 0) return [];
      const [lo, hi] = g.ranks as { hour: number; index: number }[];
      return lo!.hour === hi!.hour
        ? [{ g, hour: lo!.hour, from: lo!.index, take: hi!.index - lo!.index + 1 }]
        : [
            { g, hour: lo!.hour, from: lo!.index, take: 1 },
            { g, hour: hi!.hour, from: hi!.index, take: 1 },
          ];
    });
    if (wanted.length > 0) {
      const dueStart = sql`(h.due_date::timestamp at time zone 'Asia/Shanghai')`;
      const homeworkList = sql.join(
        (homeworkIds.length ? homeworkIds : [-1]).map((id) => sql`${id}`),
        sql`, `,
      );
      // Each (teacher, hour) once: the tasks of the teacher's homework scored in that hour after each one's
      // due day began (an index range scan per homework), then split by the student's class.
      const { rows } = (await db.execute(sql`with w(c, t, hr, f, k) as (values ${sql.join(
        wanted.map((w) => sql`(${w.g.classId}::int, ${w.g.teacherId}::int, ${w.hour}::int, ${w.from}::int, ${w.take}::int)`),
        sql`, `,
      )}),
        b as materialized (
          select distinct w.t, w.hr, h.id as hid, ${dueStart} as due_start
          from w join homework h on h.id in (${homeworkList}) and h.created_by is not distinct from w.t
        )
        select "classId", "teacherId", hour, "from", v from (
          select w.c as "classId", w.t as "teacherId", w.hr as hour, w.f as "from", w.k, x.v,
            row_number() over (partition by w.c, w.t, w.hr order by x.v) - 1 as rank
          from b
          cross join lateral (
            select (extract(epoch from t.scored_at - b.due_start) / 3600)::float8 as v, t.student_id
            from marking_tasks t
            where t.org_id = ${orgId} and t.homework_id = b.hid and t.scored_at is not null
              and t.scored_at >= b.due_start + b.hr * interval '1 hour' and t.scored_at < b.due_start + (b.hr + 1) * interval '1 hour'
          ) x
          join students s on s.id = x.student_id
          join w on w.c = s.class_id and w.t is not distinct from b.t and w.hr = b.hr
        ) y where rank >= "from" and rank < "from" + k order by rank`)) as unknown as {
        rows: { classId: number; teacherId: number | null; hour: number; from: number; v: number }[];
      };
      // Rank within the hour -> value.
      const values = new Map<string, number>();
      const next = new Map<string, number>();
      for (const r of rows) {
        const key = `${r.classId}:${r.teacherId}:${r.hour}`;
        const index = next.get(key) ?? Number(r.from);
        next.set(key, index + 1);
        values.set(`${key}:${index}`, Number(r.v));
      }
      for (const g of out) {
        if (g.n === 0) continue;
        const [lo, hi] = g.ranks.map((r) => values.get(`${g.classId}:${g.teacherId}:${r!.hour}:${r!.index}`));
        if (lo === undefined || hi === undefined) continue;
        // As PostgreSQL interpolates (float8_lerp): lo + proportion * (hi - lo), proportion 0 or 0.5.
        g.median = (g.n - 1) % 2 === 0 ? lo : lo + 0.5 * (hi - lo);
      }
    }
    return out;
  }

  async function directorYear(scope: AnalysisScope, schoolYearId: number) {
    requireGradeDirector(scope);
    const year = await requireSchoolYear(scope, schoolYearId);
    requireGradeDirector(scope, year.id);
    return year;
  }

  return {
    scope: (userId: number) => resolveAnalysisScope(db, userId),

    async options(userId: number): Promise<AnalysisOptions> {
      const scope = await resolveAnalysisScope(db, userId);
      const [years, klasses, subjectRows, list, scoredRows] = await Promise.all([
        schoolYearsOf(scope.orgId),
        classesOf(scope.orgId),
        db
          .select({ id: subjects.id, name: subjects.name })
          .from(subjects)
          .where(eq(subjects.orgId, scope.orgId))
          .orderBy(asc(subjects.sort)),
        loadHomework(db, scope.orgId, {}),
        db
          .selectDistinct({ id: homeworkStudentTotals.homeworkId })
          .from(homeworkStudentTotals)
          .where(and(eq(homeworkStudentTotals.orgId, scope.orgId), sql`${homeworkStudentTotals.scoreCount} > 0`)),
      ]);
      const scored = new Set(scoredRows.map((r) => r.id));
      const visibleClasses = klasses.filter((c) => scope.visible.has(c.id));
      const visibleHomework = list.filter((hw) => visibleClassesOf(scope, hw).length > 0);
      const yearIds = new Set(visibleClasses.map((c) => c.schoolYearId));
      return {
        schoolYears: years
          .filter((y) => yearIds.has(y.id))
          .map((y) => ({
            id: y.id,
            name: y.name,
            ranksAllowed: ranksAllowed(y.name, scope.schoolType, y.ranksEnabled),
            ranksEnabled: y.ranksEnabled,
          })),
        subjects: subjectRows,
        classes: visibleClasses.map((c) => ({ id: c.id, name: c.name, schoolYearId: c.schoolYearId! })),
        homework: visibleHomework
          .map((hw) => ({
            id: hw.id,
            title: hw.title,
            subjectId: hw.subjectId,
            schoolYearId: hw.schoolYearId,
            startDate: hw.startDate,
            classIds: visibleClassesOf(scope, hw),
            scored: scored.has(hw.id),
          }))
          .reverse(),
        gradeDirector: scope.gradeDirector,
      };
    },

    async grade(userId: number, filter: GradeFilter) {
      const scope = await resolveAnalysisScope(db, userId);
      const subject = await requireSubject(scope, filter.subjectId);
      return overview(scope, { ...filter, classId: null, title: subject.name });
    },

    async klass(userId: number, filter: ClassFilter) {
      const scope = await resolveAnalysisScope(db, userId);
      const subject = await requireSubject(scope, filter.subjectId);
      const klass = (await classesOf(scope.orgId)).find((c) => c.id === filter.classId);
      if (!klass || !canSee(scope, klass.id, subject.id)) throw ApiError.notFound();
      return overview(scope, {
        schoolYearId: klass.schoolYearId!,
        subjectId: subject.id,
        classId: klass.id,
        from: filter.from,
        to: filter.to,
        title: klass.name,
      });
    },

    /** 学生学情's picker: the class's students (id, name, 学号), under the class view's rule (404 otherwise). */
    async classRoster(userId: number, query: ClassRosterQuery): Promise<ClassRoster> {
      const scope = await resolveAnalysisScope(db, userId);
      const subject = await requireSubject(scope, query.subjectId);
      const klass = (await classesOf(scope.orgId)).find((c) => c.id === query.classId);
      if (!klass || !canSee(scope, klass.id, subject.id)) throw ApiError.notFound();
      const roster = await loadRoster(db, scope.orgId, [klass.id]);
      return { classId: klass.id, students: roster.map((s) => ({ id: s.id, name: s.name, code: s.code })) };
    },

    async person(userId: number, filter: PersonFilter) {
      return person(await resolveAnalysisScope(db, userId), filter);
    },

    /**
     * One homework's analysis. Projected (作业讲评 on a classroom screen): anonymous (no name, code or rank)
     * unless the teacher asked for names for this showing and the school year allows named lists.
     */
    async homework(userId: number, homeworkId: number, classId?: number, projection?: HomeworkProjection) {
      const analysis = await homeworkAnalysis(await resolveAnalysisScope(db, userId), homeworkId, classId);
      if (projection === undefined) return analysis;
      if (projection === 'named') {
        if (!analysis.ranksAllowed) throw ApiError.badRequest(ANALYSIS_MESSAGES.namesNotAllowed);
        return analysis;
      }
      return {
        ...analysis,
        students: analysis.students.map((s) => ({ ...s, name: '', code: '', classRank: null, rank: null })),
      };
    },

    /** Ranks on or off (or back to the default) for a school year of the caller's school: managers only. */
    async setRanks(userId: number, setting: RankSetting) {
      const actor = await requirePermission(db, userId, { kind: 'school.manage' });
      const updated = await db
        .update(classes)
        .set({ ranksEnabled: setting.enabled })
        .where(and(eq(classes.id, setting.schoolYearId), eq(classes.orgId, actor.orgId), eq(classes.type, CLASS_TYPE.schoolYear)))
        .returning({ id: classes.id });
      if (updated.length === 0) throw ApiError.notFound();
    },

    /** The homework report as .docx: the same analysis, drawn by homework-report-docx.ts. */
    async homeworkReportDocx(userId: number, homeworkId: number, classId?: number) {
      const scope = await resolveAnalysisScope(db, userId);
      const data = await homeworkAnalysis(scope, homeworkId, classId);
      return { title: data.homework.title, file: await renderHomeworkReportDocx(data, data.lines) };
    },

    async subjectStats(userId: number, filter: DataCenterFilter): Promise<SubjectStats> {
      const scope = await resolveAnalysisScope(db, userId);
      const year = await directorYear(scope, filter.schoolYearId);
      const klasses = (await classesOf(scope.orgId)).filter((c) => c.schoolYearId === year.id);
      const classIds = klasses.map((c) => c.id);
      const list = await loadHomework(db, scope.orgId, { schoolYearId: year.id, subjectId: filter.subjectId });
      const roster = await loadRoster(db, scope.orgId, classIds);
      const totals = await loadTotals(db, scope.orgId, list);
      const subjectIds = [...new Set(list.map((h) => h.subjectId))];
      return {
        schoolYear: { id: year.id, name: year.name },
        subjects: subjectIds.map((subjectId) => {
          const ofSubject = list.filter((h) => h.subjectId === subjectId);
          const stats = ofSubject.map((hw) => ({
            hw,
            s: summaryFromTotals(scope, hw, roster, totals.get(hw.id), hw.classIds).summary,
          }));
          const scored = stats.filter((x) => x.s.participation.participants > 0);
          const weighted = (pick: (x: (typeof stats)[number]) => number | null | undefined) => {
            const n = sum(scored.map((x) => x.s.participation.participants));
            return n > 0 ? sum(scored.map((x) => (pick(x) ?? 0) * x.s.participation.participants)) / n : null;
          };
          const marksFull = (ids: number[]) => {
            let score = 0;
            let full = 0;
            for (const { hw } of stats) {
              const fullMark = sum(hw.questions.map((q) => q.full));
              for (const p of participantsOf(hw, roster, totals.get(hw.id), ids).present) {
                score += p.total;
                full += fullMark;
              }
            }
            return full > 0 ? score / full : null;
          };
          return {
            subjectId,
            name: ofSubject[0]!.subjectName,
            // The homework behind the figures (with a student 已阅完), as 年级学情 and /bigData count them.
            homeworkCount: scored.length,
            participations: sum(stats.map((x) => x.s.participation.participants)),
            scoreRate: marksFull(classIds),
            passRate: weighted((x) => x.s.levels?.passRate),
            excellentRate: weighted((x) => x.s.levels?.excellentRate),
            classes: klasses.map((c) => ({ classId: c.id, name: c.name, scoreRate: marksFull([c.id]) })),
          };
        }),
      };
    },

    async correctScore(userId: number, filter: DataCenterFilter): Promise<CorrectScore> {
      const scope = await resolveAnalysisScope(db, userId);
      const year = await directorYear(scope, filter.schoolYearId);
      const klasses = (await classesOf(scope.orgId)).filter((c) => c.schoolYearId === year.id);
      const list = await loadHomework(db, scope.orgId, { schoolYearId: year.id, subjectId: filter.subjectId });
      const ids = list.map((h) => h.id);
      const classIds = klasses.map((c) => c.id);
      const idList = sql.join(
        (ids.length ? ids : [-1]).map((id) => sql`${id}`),
        sql`, `,
      );
      // Counted in the database per class and homework (scanned sheets, from homework_student_totals) and
      // per class and teacher (marking tasks: on time = scored by the end of the due day, speed = median
      // hours after the due day began, Beijing time) from the hours pre-aggregate (marking_task_hours,
      // migration 0021), so a semester's tasks never cross into the server, nor are sorted, row by row.
      const dueStart = sql`(h.due_date::timestamp at time zone 'Asia/Shanghai')`;
      const [enrolledRows, scannedRows, hourRows, teachers] = await Promise.all([
        db
          .select({ classId: students.classId, value: count() })
          .from(students)
          .where(and(eq(students.orgId, scope.orgId), inArray(students.classId, classIds.length ? classIds : [-1])))
          .groupBy(students.classId),
        // Students with a counted answer, from the pre-aggregate (one row per student and homework).
        db.execute(sql`select s.class_id as "classId", t.homework_id as "homeworkId", count(*)::int as n
          from homework_student_totals t join students s on s.id = t.student_id
          where t.org_id = ${scope.orgId} and t.homework_id in (${idList}) and t.answer_count > 0 group by 1, 2`),
        // Scored tasks per class, teacher and hour after the due day began (a whole number: the day starts
        // on a whole hour), added over the teacher's homework.
        db.execute(sql`select m.class_id as "classId", h.created_by as "teacherId",
            m.hour - (extract(epoch from ${dueStart})::bigint / 3600)::int as hour, sum(m.task_count)::int as n
          from marking_task_hours m join homework h on h.id = m.homework_id
          where m.org_id = ${scope.orgId} and m.homework_id in (${idList}) and m.task_count <> 0 group by 1, 2, 3`),
        db
          .select({ id: users.id, name: users.nickname })
          .from(users)
          .where(inArray(users.id, [...new Set(list.map((h) => h.createdBy).filter((id): id is number => id !== null)), -1])),
      ]);
      const tasks = await markingSpeed(
        scope.orgId,
        ids,
        (hourRows as unknown as { rows: { classId: number; teacherId: number | null; hour: number; n: number }[] }).rows,
      );
      const enrolledOf = new Map(enrolledRows.map((r) => [r.classId, r.value]));
      const scanned = (scannedRows as unknown as { rows: { classId: number; homeworkId: number; n: number }[] }).rows;
      const rows: CorrectScore['rows'] = [];
      for (const klass of klasses) {
        const ofClass = list.filter((h) => h.classIds.includes(klass.id));
        const byTeacher = new Map<number | null, LoadedHomework[]>();
        for (const hw of ofClass) byTeacher.set(hw.createdBy, [...(byTeacher.get(hw.createdBy) ?? []), hw]);
        for (const [teacherId, hws] of byTeacher) {
          const hwIds = new Set(hws.map((h) => h.id));
          const enrolled = enrolledOf.get(klass.id) ?? 0;
          const marked = tasks.find((t) => t.classId === klass.id && t.teacherId === teacherId);
          rows.push({
            teacherId,
            teacherName: teachers.find((u) => u.id === teacherId)?.name ?? '（未知）',
            classId: klass.id,
            className: klass.name,
            subjectName: [...new Set(hws.map((h) => h.subjectName))].join('、'),
            assigned: hws.length,
            expectedSheets: enrolled * hws.length,
            scannedSheets: sum(scanned.filter((r) => r.classId === klass.id && hwIds.has(r.homeworkId)).map((r) => r.n)),
            markedTasks: marked?.n ?? 0,
            onTimeTasks: marked?.onTime ?? 0,
            medianHoursAfterDue: marked?.median ?? null,
          });
        }
      }
      return { schoolYear: { id: year.id, name: year.name }, rows };
    },

    async averageScore(userId: number, filter: DataCenterFilter): Promise<AverageScore> {
      const scope = await resolveAnalysisScope(db, userId);
      const year = await directorYear(scope, filter.schoolYearId);
      const klasses = (await classesOf(scope.orgId)).filter((c) => c.schoolYearId === year.id);
      const list = await loadHomework(db, scope.orgId, { schoolYearId: year.id, subjectId: filter.subjectId });
      const hw = filter.homeworkId === undefined ? list[list.length - 1] : list.find((h) => h.id === filter.homeworkId);
      if (filter.homeworkId !== undefined && !hw) throw ApiError.notFound();
      if (!hw) {
        return {
          schoolYear: { id: year.id, name: year.name },
          homework: null,
          classes: [],
          grade: { participants: 0, enrolled: 0, mean: null, scoreRate: null, questionRates: [] },
          questions: [],
        };
      }
      // From the pre-aggregated totals (loadTotals, as the grade view): the same participants, means and
      // per-question score rates as analyseHomework over the marks, without reading the marks.
      const [roster, totals] = await Promise.all([loadRoster(db, scope.orgId, hw.classIds), loadTotals(db, scope.orgId, [hw])]);
      const t = totals.get(hw.id);
      const figures = (classIds: readonly number[]) => {
        const { summary } = summaryFromTotals(scope, hw, roster, t, classIds);
        return {
          participants: summary.participation.participants,
          enrolled: summary.participation.enrolled,
          mean: summary.totals.mean,
          scoreRate: summary.scoreRate,
          questionRates: questionSumsOf(hw, t, classIds).map((q, qi) =>
            q.n === 0 || hw.questions[qi]!.full <= 0 ? null : q.sum / q.n / hw.questions[qi]!.full,
          ),
        };
      };
      const grade = figures(hw.classIds);
      return {
        schoolYear: { id: year.id, name: year.name },
        homework: { id: hw.id, title: hw.title, full: sum(hw.questions.map((q) => q.full)) },
        classes: klasses
          .filter((c) => hw.classIds.includes(c.id))
          .map((c) => {
            const s = figures([c.id]);
            return { classId: c.id, name: c.name, ...s, difference: difference(s.mean, grade.mean) };
          }),
        grade,
        questions: hw.questions.map((q) => ({ no: q.no, full: q.full, type: q.type })),
      };
    },

    async bigData(userId: number): Promise<BigData> {
      const scope = await resolveAnalysisScope(db, userId);
      const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, scope.orgId));
      const list = (await loadHomework(db, scope.orgId, {})).filter((hw) => visibleClassesOf(scope, hw).length > 0);
      const classIds = [...new Set(list.flatMap((hw) => visibleClassesOf(scope, hw)))];
      const roster: RosterStudent[] = await loadRoster(db, scope.orgId, classIds);
      const totals = await loadTotals(db, scope.orgId, list);
      // Counted from the pre-aggregate (one row per student and homework, the same counts).
      const [counted] = await db
        .select({
          answers: sql<number>`coalesce(sum(${homeworkStudentTotals.answerCount}), 0)`.mapWith(Number),
          scores: sql<number>`coalesce(sum(${homeworkStudentTotals.scoreCount}), 0)`.mapWith(Number),
        })
        .from(homeworkStudentTotals)
        .where(eq(homeworkStudentTotals.orgId, scope.orgId));
      const perHw = list.map((hw) => ({
        hw,
        s: summaryFromTotals(scope, hw, roster, totals.get(hw.id), visibleClassesOf(scope, hw)).summary,
      }));
      const scored = perHw.filter((x) => x.s.participation.participants > 0);
      const rateOf = (xs: typeof perHw) => {
        const full = sum(xs.map((x) => x.s.full * x.s.participation.participants));
        return full > 0 ? sum(xs.map((x) => (x.s.totals.mean ?? 0) * x.s.participation.participants)) / full : null;
      };
      const weekOf = (date: string) => {
        const d = new Date(`${date}T00:00:00Z`);
        const monday = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000);
        return monday.toISOString().slice(0, 10);
      };
      const weeks = [...new Set(scored.map((x) => weekOf(x.hw.startDate)))].sort();
      const subjectNames = [...new Set(scored.map((x) => x.hw.subjectName))];
      // Only the students the caller may see (visible classes of each homework), with final marks.
      const items = scored.flatMap(({ hw }) => {
        const sums = questionSumsOf(hw, totals.get(hw.id), visibleClassesOf(scope, hw));
        return hw.questions.flatMap((q, qi) =>
          sums[qi]!.n === 0
            ? []
            : (q.knowledgePoints ?? []).map((p) => ({
                pointId: p.id,
                pointName: `${hw.subjectName}|${p.name}`,
                questionKey: `${hw.id}:${q.no}`,
                score: sums[qi]!.sum,
                full: sums[qi]!.n * q.full,
              })),
        );
      });
      const bandCounts = new Map(GRADE_BANDS.map((b) => [b, 0]));
      for (const { s } of scored) for (const g of s.gradeBands) bandCounts.set(g.band, bandCounts.get(g.band)! + g.count);
      return {
        schoolName: org?.name ?? '',
        students: roster.length,
        homeworkFinished: list.filter((h) => h.status === 'finished').length,
        answersScanned: counted?.answers ?? 0,
        questionScores: counted?.scores ?? 0,
        subjects: subjectNames.map((name) => {
          const xs = scored.filter((x) => x.hw.subjectName === name);
          return { name, homeworkCount: xs.length, scoreRate: rateOf(xs) };
        }),
        weekly: weeks.map((week) => {
          const xs = scored.filter((x) => weekOf(x.hw.startDate) === week);
          return { week, homeworkCount: xs.length, scoreRate: rateOf(xs) };
        }),
        gradeBands: GRADE_BANDS.map((band) => ({ band, count: bandCounts.get(band)! })),
        weakPoints: masteryOf(items)
          .filter((p) => p.mastery !== null)
          .sort((a, b) => a.mastery! - b.mastery!)
          .slice(0, 8)
          .map((p) => ({
            name: p.name.split('|')[1]!,
            subject: p.name.split('|')[0]!,
            mastery: p.mastery!,
            questionCount: p.questionCount,
          })),
      };
    },
  };
}
